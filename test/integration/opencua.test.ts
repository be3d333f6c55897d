// An OpenCUA-style model writes pyautogui code; the whitelist reader turns it into actions on a
// real page, one step each when an answer holds several, and hostile code is refused, never run.
import { describe, expect, it } from "vitest";
import type { TaskReply } from "../../src/protocol/index.ts";
import { planningText, userText, type Reply } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages, app } = useWorld({ config: { model: { provider: "opencua", name: "opencua-test" } } });
const code = (action: string, python: string): Reply => ({ text: `## Thought:\nLooking at the form.\n## Action:\n${action}\n## Code:\n\`\`\`python\n${python}\n\`\`\`` });

describe("OpenCUA", () => {
  it("runs pyautogui code on a real page and refuses code it must not run", async () => {
    model.route(
      (r) => planningText(r).includes("Task: fill in with code"),
      code("Delete everything.", "os.system('rm -rf /')"),
      code("Press the button and type the name.", "pyautogui.click(x=0.15625, y=0.1625)\npyautogui.write(message='Ada')"),
      code("Finish.", "computer.terminate(status='success', answer='Typed **Ada**.')"),
    );
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-cua-code", text: "fill in with code", start_url: pages.url("form.html") });
    const events = await openStream(app.url, "s-cua-code", 0);
    expect(await events.completes(json.task_id)).toMatchObject({ answer: "Typed **Ada**." });
    events.close();
    await pages.waitForRecord("typed:Ada");
    const { json: stored } = await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
    expect(stored.steps.map((s) => [s.action?.type, s.text, s.planner])).toEqual([
      ["click", "Press the button and type the name.", "opencua:opencua-test"],
      ["type", "Press the button and type the name.", "opencua:opencua-test"],
      ["done", "Finish.", "opencua:opencua-test"],
    ]);
    const requests = model.requests.filter((r) => planningText(r).includes("Task: fill in with code"));
    // The refusal went back to the model; the batch of two calls cost one request.
    expect(userText(requests[1]!)).toContain("os.system is not allowed");
    expect(requests).toHaveLength(3);
  });
});
