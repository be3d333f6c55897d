// The whole product on Postgres (DATABASE_URL): a task sent through the API runs in a real
// Chromium and is kept in a real Postgres server — its steps, its events and the chat — and a
// server started again on the same database finds them all, and replays the stream from its start.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Session, TaskReply } from "../../src/protocol/index.ts";
import { startApp, type TestApp } from "../support/app.ts";
import { startPostgres, type Postgres } from "../support/postgres.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages } = useWorld({ app: false });
let postgres: Postgres;
let databaseUrl = "";
let app: TestApp | null = null;

beforeAll(async () => {
  postgres = await startPostgres();
  databaseUrl = await postgres.database();
}, 60_000);
afterAll(async () => {
  await app?.close();
  await postgres?.stop();
});

describe("EasyAgentCU on Postgres", () => {
  it("keeps a task's steps, events and chat in the database, for a server started again on it", async () => {
    app = await startApp({ modelBaseUrl: model.baseUrl, config: { databaseUrl } });
    const text = "press the button on the form";
    model.route((r) => planningText(r).includes(`Task: ${text}`), act("click", { x: 200, y: 130 }, "Pressing the button"), act("done", { answer: "Pressed." }, "Finished"));
    const sent = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-pg", text, start_url: pages.url("form.html") });
    const events = await openStream(app.url, "s-pg", 0);
    await events.waitForEnd(sent.json.task_id);
    events.close();
    const dataDir = app.dataDir;
    await app.close();

    app = await startApp({ modelBaseUrl: model.baseUrl, dataDir, config: { databaseUrl } });
    const { task, steps } = (await app.api<TaskReply>("GET", `/api/tasks/${sent.json.task_id}`)).json;
    expect(task).toMatchObject({ status: "completed", answer: "Pressed." });
    expect(steps.map((s) => s.action?.type)).toEqual(["click", "done"]);
    const sessions = (await app.api<{ sessions: Session[] }>("GET", "/api/sessions")).json.sessions;
    expect(sessions.find((s) => s.id === "s-pg")).toMatchObject({ task_status: "completed", status: "done" });
    const replay = await openStream(app.url, "s-pg", 0);
    const ended = await replay.waitFor((e) => e.type === "task.completed");
    replay.close();
    expect(ended).toMatchObject({ task_id: sent.json.task_id, answer: "Pressed." });
  });

  it("says which server it could not reach when DATABASE_URL names none", async () => {
    await expect(startApp({ modelBaseUrl: model.baseUrl, config: { databaseUrl: "postgres://nobody@127.0.0.1:1/none" } })).rejects.toThrow(
      "Could not reach the Postgres server of DATABASE_URL (127.0.0.1:1/none)",
    );
  });
});
