// A file the agent downloads is the person's: kept with the task byte for byte, typed from its
// bytes, announced as it arrives, listed with the task and served back as a download — never as a
// page in the app's origin. One larger than DOWNLOAD_MAX_BYTES is cancelled, and the model is told.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { AgentEventOf, TaskReply } from "../../src/protocol/index.ts";
import { openStream } from "../support/sse.ts";
import { act, planningText, systemText, type RecordedRequest, type Reply } from "../support/scripted-model.ts";
import { useWorld } from "../support/world.ts";

/** The catalogue (about 20 KB) is over this cap; the invoice (636 bytes) is under it. */
const MAX_BYTES = 8 * 1024;
const { model, pages, app } = useWorld({ config: { downloads: { maxBytes: MAX_BYTES } } });
const FILES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/pages/files");

async function run(task: string, replies: Reply[]) {
  model.route((r) => planningText(r).includes(`Task: ${task}`), ...replies);
  const session = `s-${task.replace(/\W+/g, "-")}`;
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text: task, start_url: pages.url("downloads.html") });
  const events = await openStream(app.url, session, 0);
  await events.completes(json.task_id);
  events.close();
  const fileEvents = events.events.flatMap((e) => (e.type === "task.file" ? [e as AgentEventOf<"task.file">] : []));
  const requests = model.requests.filter((r) => planningText(r).includes(`Task: ${task}`));
  const { json: stored } = await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
  return { session, events: events.events, fileEvents, requests, stored };
}

const done = act("done", { answer: "Downloaded." });
const toolAgentFor = (goal: string) => (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a web automation agent") && JSON.stringify(r.body.messages[1]).includes(`Goal: ${goal}`);
const calls = (...list: [string, unknown][]): Reply => ({ chat: { calls: list.map(([name, args]) => ({ name, arguments: args })) } });

describe("a file the agent downloads", () => {
  it("is received when the agent opens its address: the step succeeds and the file is kept", async () => {
    const original = await readFile(path.join(FILES, "invoice-march.pdf"));
    const { stored } = await run("open the March invoice's address", [act("navigate", { url: pages.url("files/invoice-march.pdf") }, "Opening the invoice"), done]);
    expect(stored.steps[0]).toMatchObject({ action: { type: "navigate" }, text: expect.not.stringContaining("Could not open") });
    expect(stored.files).toEqual([{ id: expect.any(String), name: "invoice-march.pdf", mime_type: "application/pdf", size: original.length, step: 1 }]);
  });

  it("is kept with the task byte for byte, listed with it, announced, and served back as a download", async () => {
    const original = await readFile(path.join(FILES, "invoice-march.pdf"));
    const { events, fileEvents, stored, requests } = await run("get the March invoice", [act("click", { x: 200, y: 120 }, "Downloading the invoice"), done]);

    const listed = { name: "invoice-march.pdf", mime_type: "application/pdf", size: original.length, step: 1 };
    expect(stored.files).toEqual([{ id: expect.any(String), ...listed }]);
    expect(fileEvents.map((e) => ({ file: e.file, refused: e.refused }))).toEqual([{ file: { id: stored.files[0]!.id, ...listed }, refused: null }]);
    // The event comes before the task's end.
    expect(events.findIndex((e) => e.type === "task.file")).toBeLessThan(events.findIndex((e) => e.type === "task.completed"));

    const kept = path.join(app.dataDir, "sessions", stored.task.session_id, "tasks", stored.task.id, "files", stored.files[0]!.id, "invoice-march.pdf");
    expect((await readFile(kept)).equals(original)).toBe(true);

    const response = await fetch(`${app.url}/api/files/${stored.files[0]!.id}`);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(original)).toBe(true);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="invoice-march.pdf"; filename*=UTF-8''invoice-march.pdf`);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");

    // The model hears of it at its next step.
    expect(planningText(requests[1]!)).toContain("invoice-march.pdf (636 B, application/pdf)");
  });

  it("larger than DOWNLOAD_MAX_BYTES is cancelled and not kept, and the model is told why", async () => {
    const { fileEvents, stored, requests } = await run("get the catalogue", [act("click", { x: 200, y: 220 }, "Downloading the catalogue"), done]);
    expect(stored.files).toEqual([]);
    expect(fileEvents).toHaveLength(1);
    expect(fileEvents[0]).toMatchObject({ file: { name: "catalogue.pdf", step: 1 }, refused: expect.stringContaining("larger than DOWNLOAD_MAX_BYTES (8.0 KB)") });
    expect(planningText(requests[1]!)).toContain("catalogue.pdf was not kept: it is larger than DOWNLOAD_MAX_BYTES");
    const response = await fetch(`${app.url}/api/files/${fileEvents[0]!.file.id}`);
    expect(response.status).toBe(404);
  });

  it("is gone, row and bytes, when its chat is deleted; an unknown id is 404", async () => {
    const { session, stored } = await run("get the invoice again", [act("click", { x: 200, y: 120 }, "Downloading the invoice"), done]);
    const id = stored.files[0]!.id;
    const kept = path.join(app.dataDir, "sessions", session, "tasks", stored.task.id, "files", id, "invoice-march.pdf");
    expect(existsSync(kept)).toBe(true);
    expect((await fetch(`${app.url}/api/files/${id}`)).status).toBe(200);
    expect((await app.api("DELETE", `/api/sessions/${session}`)).status).toBeLessThan(300);
    expect((await fetch(`${app.url}/api/files/${id}`)).status).toBe(404);
    expect(existsSync(kept)).toBe(false);
    expect((await fetch(`${app.url}/api/files/file_nothing`)).status).toBe(404);
  });

  it("started by the tool agent is told to it: name, size and type", async () => {
    const goal = "Fetch the March invoice";
    model.route(
      toolAgentFor(goal),
      calls(["goto", { url: pages.url("files/invoice-march.pdf") }]),
      calls(["close", { reasoning: "The invoice is downloaded.", taskComplete: true }]),
    );
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-tool-download", text: goal, agent_mode: "dom", start_url: pages.url("downloads.html") });
    const events = await openStream(app.url, "s-tool-download", 0);
    await events.completes(json.task_id);
    events.close();
    const asked = model.requests.filter(toolAgentFor(goal));
    expect(JSON.stringify(asked[1]!.body)).toContain("Received the file invoice-march.pdf (636 B, application/pdf)");
    const { json: stored } = await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
    expect(stored.files).toMatchObject([{ name: "invoice-march.pdf", mime_type: "application/pdf", size: 636, step: 1 }]);
  });
});
