// AG-UI across a restart: a task that waits for the person ends its run with an interrupt, the
// server is killed, and on the next server the task goes on — answered by a run that resumes the
// interrupt, or by a run that brings the person's next message instead.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { HttpAgent, type BaseEvent, type Interrupt, type RunFinishedEvent } from "@ag-ui/client";
import { describe, expect, it } from "vitest";
import { INSTALL_TOKEN_HEADER } from "../../src/protocol/index.ts";
import { startApp } from "../support/app.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { startProductProcess } from "../support/product-process.ts";
import { useWorld } from "../support/world.ts";

const { model, pages } = useWorld({ app: false });

const agentAt = (url: string, token: string, threadId: string) => new HttpAgent({ url: `${url}/api/agui`, threadId, headers: { [INSTALL_TOKEN_HEADER]: token } });

async function run(agent: HttpAgent, parameters: Parameters<HttpAgent["runAgent"]>[0] = {}): Promise<BaseEvent[]> {
  const events: BaseEvent[] = [];
  await agent.runAgent(parameters, { onEvent: ({ event }) => void events.push(event) });
  return events;
}

/** A real `serve` process on the data dir, and kill -9 for it. */
const spawnServer = (dataDir: string) =>
  startProductProcess(["serve", "--port", "0"], { MODEL_BASE_URL: model.baseUrl, MODEL_NAME: "scripted-vl", LOG_LEVEL: "silent", ALLOWED_ORIGINS: new URL(pages.url("")).origin }, /running at (\S+)/, dataDir);

describe("an AG-UI run across a restart", () => {
  it("goes on with the waiting task, answered by a resume or by the person's next message", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "easyagentcu-agui-restart-"));
    const tasks = { resumed: "sign in for me, resumed over AG-UI", told: "sign in for me, told over AG-UI" };
    for (const [name, text] of Object.entries(tasks)) {
      model.route((r) => planningText(r).includes(`Task: ${text}`), act("needs_user", { answer: "Please sign in, then tell me." }, "Waiting for you"), act("done", { answer: `Signed in (${name}).` }, "Finished"));
    }
    const first = await spawnServer(dataDir);
    const interrupts: Record<string, Interrupt> = {};
    try {
      for (const [name, text] of Object.entries(tasks)) {
        const agent = agentAt(first.url, first.token, `s-agui-${name}`);
        agent.addMessage({ id: `${name}-1`, role: "user", content: text });
        const events = await run(agent, { forwardedProps: { mode: "task", agent_mode: "actions", start_url: pages.url("form.html") } });
        expect((events.at(-1) as unknown as RunFinishedEvent).outcome).toMatchObject({ type: "interrupt" });
        interrupts[name] = agent.pendingInterrupts[0]!;
      }
    } finally {
      await first.kill();
    }

    const second = await startApp({ modelBaseUrl: model.baseUrl, dataDir });
    try {
      const resumer = agentAt(second.url, second.system.installToken, "s-agui-resumed");
      const resumed = await run(resumer, { resume: [{ interruptId: interrupts.resumed!.id, status: "resolved", payload: { text: "Done, I signed in." } }] });
      expect(resumed.at(-1)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" }, result: { answer: "Signed in (resumed)." } });
      expect(resumer.state).toMatchObject({ task: { id: interrupts.resumed!.metadata?.task_id, status: "completed" } });

      const teller = agentAt(second.url, second.system.installToken, "s-agui-told");
      teller.addMessage({ id: "told-2", role: "user", content: "I have signed in now." });
      const told = await run(teller);
      expect(told.at(-1)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" }, result: { task_id: interrupts.told!.metadata?.task_id, answer: "Signed in (told)." } });
      // It answered the task that waited; it started none of its own.
      const { json } = await second.api<{ tasks: unknown[] }>("GET", "/api/sessions/s-agui-told/tasks");
      expect(json.tasks).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});
