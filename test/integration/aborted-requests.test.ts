// A client that goes away while it sends a request's body (a tab closed as it pressed Stop) is
// not the server's failure (issue 31): the server notes it in one warning line without a stack, and
// goes on serving — it once logged an error with a stack trace for each.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INSTALL_TOKEN_HEADER } from "../../src/protocol/index.ts";
import { useWorld } from "../support/world.ts";

const { model } = useWorld({ app: false });

let server: ChildProcess;
let url = "";
let token = "";
/** The server's log, one JSON object a line. */
let log = "";

beforeAll(async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), "easyagentcu-aborted-"));
  server = spawn(process.execPath, ["bin/easyagentcu.js", "serve", "--port", "0", "--data-dir", dataDir], {
    env: { ...process.env, MODEL_BASE_URL: model.baseUrl, LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
  url = await new Promise<string>((resolve, reject) => {
    let out = "";
    server.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const found = /running at (\S+)/.exec(out)?.[1];
      if (found) resolve(found);
    });
    server.once("exit", (code) => reject(new Error(`server exited with ${code}: ${log}`)));
  });
  token = (await readFile(path.join(dataDir, "install-token"), "utf8")).trim();
});
afterAll(async () => {
  if (!server || server.exitCode !== null) return;
  server.kill("SIGTERM");
  await new Promise((resolve) => server.once("exit", resolve));
});

/** Sends a stop request's head and the start of its body, then closes the connection. */
function abortMidBody(framing: string, start: string): Promise<void> {
  const { port, host } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => {
      socket.write(`POST /api/chat/stop HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n${INSTALL_TOKEN_HEADER}: ${token}\r\n${framing}\r\n\r\n${start}`);
      // Long enough for the server to be reading the body when the client goes.
      setTimeout(() => socket.destroy(), 200);
    });
    socket.once("close", () => resolve());
    socket.once("error", reject);
  });
}

const lines = () => log.split("\n").filter(Boolean).map((line) => JSON.parse(line) as { level: number; msg: string; path?: string; err?: unknown });

describe("a request whose client goes away mid-body", () => {
  it("is logged as one warning without a stack, and the server goes on serving", async () => {
    await abortMidBody("Transfer-Encoding: chunked", 'b\r\n{"task_id":\r\n');
    await abortMidBody("Content-Length: 100", '{"task_id":');
    await expect.poll(() => lines().filter((line) => line.path === "/api/chat/stop").length).toBeGreaterThan(0);
    // Another request answered after them: everything they logged is written.
    expect((await fetch(`${url}/api/health`)).status).toBe(200);

    expect(lines().filter((line) => line.level >= 50)).toEqual([]);
    const aborted = lines().filter((line) => line.path === "/api/chat/stop");
    expect(aborted.length).toBeGreaterThan(0);
    for (const line of aborted) {
      expect(line.level).toBe(40);
      expect(JSON.stringify(line)).not.toContain("stack");
    }
  });
});
