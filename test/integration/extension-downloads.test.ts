// A file the agent downloads in the person's own Chrome (seed 004) is theirs as much as one from
// our own browser: the extension sees it begin in chrome.downloads, sends its bytes, and the task
// keeps it byte for byte, announces it and serves it back — a file the page made in memory too.
// One larger than DOWNLOAD_MAX_BYTES is never sent nor kept (cancelled there while it is still
// coming), and the model is told why.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentEventOf, TaskReply } from "../../src/protocol/index.ts";
import { startApp, type TestApp } from "../support/app.ts";
import { chromeConnectedTo } from "../support/extension-browser.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

/** The catalogue (about 20 KB) is over this cap; the invoice (636 bytes) is under it. */
const MAX_BYTES = 8 * 1024;
const FILES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/pages/files");
const { model, pages } = useWorld({ app: false });
let app: TestApp;
let context: BrowserContext;

beforeAll(async () => {
  app = await startApp({ modelBaseUrl: model.baseUrl, config: { downloads: { maxBytes: MAX_BYTES } } });
  ({ context } = await chromeConnectedTo(app));
}, 180_000);

afterAll(async () => {
  await context?.close();
  await app?.close();
});

async function run(task: string, x: number, y: number, page = "downloads.html") {
  model.route(
    (r) => planningText(r).includes(`Task: ${task}`),
    act("click", { x, y }, "Downloading the file"),
    act("done", { answer: "Downloaded." }, "Finished"),
  );
  const session = `s-${task.replace(/\W+/g, "-")}`;
  const events = await openStream(app.url, session, 0);
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", computer: "extension", session_id: session, text: task, start_url: pages.url(page) });
  await events.completes(json.task_id, 60_000);
  events.close();
  const fileEvents = events.events.flatMap((e) => (e.type === "task.file" ? [e as AgentEventOf<"task.file">] : []));
  const requests = model.requests.filter((r) => planningText(r).includes(`Task: ${task}`));
  const { json: stored } = await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
  return { fileEvents, requests, stored };
}

describe("a file the agent downloads in the person's Chrome", () => {
  it("is kept with the task byte for byte, announced, served back, and told to the model", async () => {
    const original = await readFile(path.join(FILES, "invoice-march.pdf"));
    const { fileEvents, requests, stored } = await run("get the March invoice in my browser", 200, 120);

    const listed = { name: "invoice-march.pdf", mime_type: "application/pdf", size: original.length, step: 1 };
    expect(stored.files).toEqual([{ id: expect.any(String), ...listed }]);
    expect(fileEvents.map((e) => ({ file: e.file, refused: e.refused }))).toEqual([{ file: { id: stored.files[0]!.id, ...listed }, refused: null }]);
    const response = await fetch(`${app.url}/api/files/${stored.files[0]!.id}`);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(original)).toBe(true);
    expect(planningText(requests[1]!)).toContain("invoice-march.pdf (636 B, application/pdf)");
  });

  it("made by the page itself (a blob: address) is read from the page and kept byte for byte", async () => {
    const lines = Array.from({ length: 50 }, (_, i) => `Note ${i + 1}: the tide turned at ${6 + (i % 12)} o'clock.`);
    const made = Buffer.from(lines.join("\n") + "\n");
    const { stored } = await run("export my notes in my browser", 200, 120, "blob-download.html");
    expect(stored.files).toEqual([{ id: expect.any(String), name: "notes.txt", mime_type: "text/plain", size: made.length, step: 1 }]);
    const response = await fetch(`${app.url}/api/files/${stored.files[0]!.id}`);
    expect(Buffer.from(await response.arrayBuffer()).equals(made)).toBe(true);
  });

  it("larger than DOWNLOAD_MAX_BYTES is not kept, and the model is told why", async () => {
    const { fileEvents, requests, stored } = await run("get the catalogue in my browser", 200, 220);
    expect(stored.files).toEqual([]);
    expect(fileEvents).toHaveLength(1);
    expect(fileEvents[0]).toMatchObject({ file: { name: "catalogue.pdf", step: 1 }, refused: expect.stringContaining("larger than DOWNLOAD_MAX_BYTES (8.0 KB)") });
    expect(planningText(requests[1]!)).toContain("catalogue.pdf was not kept: it is larger than DOWNLOAD_MAX_BYTES");
    expect((await fetch(`${app.url}/api/files/${fileEvents[0]!.file.id}`)).status).toBe(404);
  });
});
