// A file the agent downloads in a browser it attached to over CDP (`cdp_url`): a browser on this
// machine saves it where the server reads it, and the task keeps it byte for byte and serves it
// back; a browser reached at another machine's address keeps it in its own downloads folder, and
// the task says plainly that it could not be kept.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { createServer, connect, type AddressInfo, type Server } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findChromium } from "../../src/computers/browser/find-chromium.ts";
import type { AgentEventOf, TaskReply } from "../../src/protocol/index.ts";
import { startApp, type TestApp } from "../support/app.ts";
import { CHROMIUM_ARGS } from "../support/chromium.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const FILES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/pages/files");
/** This machine's address on its network, as another machine would reach it. */
const NETWORK_ADDRESS = Object.values(networkInterfaces()).flatMap((list) => list ?? []).find((a) => a.family === "IPv4" && !a.internal)!.address;

const { model, pages } = useWorld({ app: false });
const browsers: ChildProcess[] = [];
let relay: Server;
let app: TestApp;
let here: string;
let elsewhere: string;

/** A Chromium of the person's with a DevTools port on loopback; resolves with its port. */
async function theirChromium(): Promise<number> {
  const profile = await mkdtemp(path.join(tmpdir(), "easyagentcu-their-chrome-"));
  const chrome = spawn(
    findChromium(process.env.CHROME_PATH),
    ["--headless", "--no-sandbox", ...CHROMIUM_ARGS, "--remote-debugging-port=0", `--user-data-dir=${profile}`, pages.url("downloads.html")],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  browsers.push(chrome);
  return new Promise<number>((resolve, reject) => {
    let err = "";
    chrome.stderr!.on("data", (chunk: Buffer) => {
      err += chunk.toString();
      const port = /DevTools listening on ws:\/\/127\.0\.0\.1:(\d+)\//.exec(err)?.[1];
      if (port) resolve(Number(port));
    });
    chrome.once("exit", (code) => reject(new Error(`chromium exited with ${code}: ${err}`)));
  });
}

beforeAll(async () => {
  here = `http://127.0.0.1:${await theirChromium()}`;
  // The other browser is reached at this machine's network address, as one on another machine is.
  const distant = await theirChromium();
  relay = createServer((socket) => socket.pipe(connect(distant, "127.0.0.1")).pipe(socket));
  await new Promise<void>((resolve) => relay.listen(0, NETWORK_ADDRESS, resolve));
  elsewhere = `http://${NETWORK_ADDRESS}:${(relay.address() as AddressInfo).port}`;
  app = await startApp({ modelBaseUrl: model.baseUrl, config: { browser: { cdpAllowedUrls: [here, elsewhere] } } });
});

afterAll(async () => {
  await app?.close();
  relay?.close();
  for (const chrome of browsers) chrome.kill();
});

async function run(task: string, cdpUrl: string) {
  model.route(
    (r) => planningText(r).includes(`Task: ${task}`),
    act("click", { x: 200, y: 120 }, "Downloading the invoice"),
    act("done", { answer: "Downloaded." }, "Finished"),
  );
  const session = `s-${task.replace(/\W+/g, "-")}`;
  const events = await openStream(app.url, session, 0);
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text: task, cdp_url: cdpUrl });
  await events.completes(json.task_id);
  events.close();
  const fileEvents = events.events.flatMap((e) => (e.type === "task.file" ? [e as AgentEventOf<"task.file">] : []));
  const requests = model.requests.filter((r) => planningText(r).includes(`Task: ${task}`));
  const { json: stored } = await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
  return { fileEvents, requests, stored };
}

describe("a file the agent downloads in a browser attached over CDP", () => {
  it("on this machine is kept with the task byte for byte, announced and served back", async () => {
    const original = await readFile(path.join(FILES, "invoice-march.pdf"));
    const { fileEvents, requests, stored } = await run("get the March invoice in the attached browser", here);
    const listed = { name: "invoice-march.pdf", mime_type: "application/pdf", size: original.length, step: 1 };
    expect(stored.files).toEqual([{ id: expect.any(String), ...listed }]);
    expect(fileEvents.map((e) => ({ file: e.file, refused: e.refused }))).toEqual([{ file: { id: stored.files[0]!.id, ...listed }, refused: null }]);
    const response = await fetch(`${app.url}/api/files/${stored.files[0]!.id}`);
    expect(Buffer.from(await response.arrayBuffer()).equals(original)).toBe(true);
    expect(planningText(requests[1]!)).toContain("invoice-march.pdf (636 B, application/pdf)");
  });

  it("on another machine is left in that browser's downloads, and the task and the model are told it could not be kept", async () => {
    const { fileEvents, requests, stored } = await run("get the March invoice in the distant browser", elsewhere);
    expect(stored.files).toEqual([]);
    const why = `the browser at ${elsewhere} runs on another machine, so EasyAgentCU cannot read its downloads; the file stays in that browser's own downloads folder`;
    expect(fileEvents).toHaveLength(1);
    expect(fileEvents[0]).toMatchObject({ file: { name: "invoice-march.pdf", step: 1 }, refused: `the download failed (${why})` });
    expect(planningText(requests[1]!)).toContain(`The file invoice-march.pdf was not kept: the download failed (${why})`);
  });
});
