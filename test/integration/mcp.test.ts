// The MCP server (issue 37), used by the SDK's own client: a whole task run on a local page over
// stdio (`easyagentcu mcp`) and over streamable HTTP at /mcp, with a progress notification per
// step; the computer driven call by call — page view with refs, screenshot, click, type, key,
// scroll, navigate — each call a recorded step of a task the app shows, and an action the policy
// asks about answered "needs approval" until answer_person decides (or asked of the person at a
// client that can show a form); and /mcp refusing a web page's requests, and, off loopback, a client
// without the sign-in token.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, it } from "vitest";
import { INSTALL_TOKEN_HEADER, type SessionsReply, type TaskReply } from "../../src/protocol/index.ts";
import { ALLOW_EVERYTHING, startApp } from "../support/app.ts";
import { fixtureOrigins } from "../support/fixture-server.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { useWorld } from "../support/world.ts";

// Everything is allowed but deleting, which asks the person.
const { model, pages, app } = useWorld({ config: { approvals: { ...ALLOW_EVERYTHING, delete: "ask" }, model: { timeoutMs: 60_000 } } });

const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
});

async function httpClient(url: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "mcp-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

/** The JSON the first text of a result holds. */
function body<T = Record<string, unknown>>(result: CallToolResult): T {
  const first = result.content[0];
  if (first?.type !== "text") throw new Error(`no text in ${JSON.stringify(result)}`);
  return JSON.parse(first.text) as T;
}

/** How many times the fixture pages have reported `text` so far. */
const reported = (text: string) => pages.records.filter((r) => r === text).length;

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult;
}

/** Runs a task by run_task, collecting the progress notifications it sends. */
async function runTask(client: Client, args: Record<string, unknown>) {
  const progress: { progress: number; message?: string | undefined }[] = [];
  const result = (await client.callTool({ name: "run_task", arguments: args }, undefined, {
    timeout: 120_000,
    onprogress: ({ progress: made, message }) => void progress.push({ progress: made, message }),
  })) as CallToolResult;
  type Reply = { status: string; answer: string; session_id: string; task_id: string; steps: { index: number; text: string }[]; waits_for: { kind: string; approval_id: string; asks: string[] } | null };
  return { result, reply: body<Reply>(result), progress };
}

describe("run_task", () => {
  it("over HTTP runs a task on a local page to its end, a progress notification per step, in a chat the app lists", async () => {
    model.route(
      (r) => planningText(r).includes("Task: press over http"),
      act("click", { x: 200, y: 130 }, "Pressing the button"),
      act("done", { answer: "Pressed." }, "Done"),
    );
    const client = await httpClient(app.url, { [INSTALL_TOKEN_HEADER]: app.system.installToken });
    const { result, reply, progress } = await runTask(client, { text: "press over http", start_url: pages.url("form.html"), agent_mode: "actions" });
    expect(result.isError).toBeFalsy();
    expect(reply).toMatchObject({ status: "completed", answer: "Pressed.", steps: [{ index: 1, text: "Pressing the button" }, { index: 2, text: "Done" }] });
    expect(progress).toEqual([
      { progress: 1, message: "Pressing the button" },
      { progress: 2, message: "Done" },
    ]);
    expect(pages.records).toContain("clicked");
    const { json: sessions } = await app.api<SessionsReply>("GET", "/api/sessions");
    expect(sessions.sessions.map((s) => s.id)).toContain(reply.session_id);
  });

  it("stops the task when its client cancels the call", async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    model.route((r) => planningText(r).includes("Task: cancelled over mcp"), { ...act("click", { x: 200, y: 130 }, "Pressing the button"), until: held });
    const client = await httpClient(app.url, { [INSTALL_TOKEN_HEADER]: app.system.installToken });
    const cancel = new AbortController();
    const called = client.callTool({ name: "run_task", arguments: { text: "cancelled over mcp", start_url: pages.url("form.html"), agent_mode: "actions" } }, undefined, { signal: cancel.signal, timeout: 120_000 });
    const session = async () => (await app.api<SessionsReply>("GET", "/api/sessions")).json.sessions.find((s) => s.title === "cancelled over mcp");
    await expect.poll(async () => (await session())?.task_status, { timeout: 60_000 }).toBe("running");
    cancel.abort();
    await expect(called).rejects.toThrow();
    await expect.poll(async () => (await session())?.task_status, { timeout: 30_000 }).toBe("stopped");
    release();
  });

  it("over stdio (`easyagentcu mcp`) runs a task the same way, and writes nothing but the protocol to stdout", async () => {
    model.route(
      (r) => planningText(r).includes("Task: press over stdio"),
      act("click", { x: 200, y: 130 }, "Pressing the button"),
      act("done", { answer: "Pressed over stdio." }, "Done"),
    );
    const dataDir = await mkdtemp(path.join(tmpdir(), "easyagentcu-mcp-"));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["bin/easyagentcu.js", "mcp", "--data-dir", dataDir],
      env: { ...(process.env as Record<string, string>), MODEL_BASE_URL: model.baseUrl, MODEL_NAME: "scripted-vl", MODEL_BACKOFF_MS: "20", ALLOWED_ORIGINS: fixtureOrigins().join(","), LOG_LEVEL: "info" },
      stderr: "pipe",
    });
    let logged = "";
    transport.stderr?.on("data", (chunk: Buffer) => (logged += chunk.toString()));
    const client = new Client({ name: "mcp-test", version: "1.0.0" });
    const unreadable: Error[] = [];
    client.onerror = (error) => void unreadable.push(error);
    await client.connect(transport);
    clients.push(client);
    const { reply, progress } = await runTask(client, { text: "press over stdio", start_url: pages.url("form.html"), agent_mode: "actions", max_steps: 5 });
    expect(reply).toMatchObject({ status: "completed", answer: "Pressed over stdio." });
    expect(progress.map((p) => p.message)).toEqual(["Pressing the button", "Done"]);
    await expect(call(client, "task_status", { task_id: reply.task_id }).then(body)).resolves.toMatchObject({ status: "completed", steps: [{ index: 1 }, { index: 2 }] });
    // Every line on stdout was a protocol message; the logs went to stderr.
    expect(unreadable).toEqual([]);
    expect(logged).toContain("task finished");
    // The process ends with its client.
    const pid = transport.pid!;
    await client.close();
    await expect.poll(() => running(pid), { timeout: 15_000 }).toBe(false);
  });
});

describe("a task that waits for the person", () => {
  it("answers run_task with what it waits for, goes on after answer_person, and task_status follows it to its end", async () => {
    model.route(
      (r) => planningText(r).includes("Task: log in through mcp"),
      act("needs_user", { answer: "Please log in, then tell me." }, "Waiting for the login"),
      act("click", { x: 200, y: 130 }, "Pressing the button"),
      act("done", { answer: "Logged in." }, "Done"),
    );
    const client = await httpClient(app.url, { [INSTALL_TOKEN_HEADER]: app.system.installToken });
    const clicksBefore = reported("clicked");
    const { reply } = await runTask(client, { text: "log in through mcp", start_url: pages.url("form.html"), agent_mode: "actions" });
    expect(reply).toMatchObject({ status: "awaiting_user", waits_for: { kind: "action", question: "Please log in, then tell me." } });
    expect(reported("clicked")).toBe(clicksBefore);
    expect(body(await call(client, "answer_person", { task_id: reply.task_id, text: "I have logged in" }))).toMatchObject({ answered: true });
    const progress: (string | undefined)[] = [];
    const followed = (await client.callTool({ name: "task_status", arguments: { task_id: reply.task_id, wait: true } }, undefined, {
      timeout: 120_000,
      onprogress: ({ message }) => void progress.push(message),
    })) as CallToolResult;
    expect(body(followed)).toMatchObject({ status: "completed", answer: "Logged in." });
    expect(progress).toEqual(["Pressing the button", "Done"]);
    await expect.poll(() => reported("clicked")).toBe(clicksBefore + 1);
    // The person's words went to the task, as their reply in the chat would.
    const { json: messages } = await app.api<{ messages: { role: string; text: string }[] }>("GET", `/api/sessions/${reply.session_id}/messages`);
    expect(messages.messages.map((m) => m.text)).toContain("I have logged in");
  });
});

describe("a task whose action the policy asks about", () => {
  it("answers run_task with the approval it waits for, and goes on from answer_person's refusal without doing it", async () => {
    model.route(
      (r) => planningText(r).includes("Task: tidy the account over mcp"),
      act("click", { x: 180, y: 120 }, "Deleting the account"),
      act("done", { answer: "The person kept the account." }, "Finished"),
    );
    const client = await httpClient(app.url, { [INSTALL_TOKEN_HEADER]: app.system.installToken });
    const deletedBefore = reported("deleted");
    const { reply } = await runTask(client, { text: "tidy the account over mcp", start_url: pages.url("approvals.html"), agent_mode: "actions" });
    expect(reply).toMatchObject({ status: "awaiting_user", waits_for: { kind: "approval", asks: [expect.stringContaining("may delete")] } });
    const approval_id = reply.waits_for!.approval_id;
    expect(body(await call(client, "answer_person", { task_id: reply.task_id, approval_id, approved: false }))).toMatchObject({ answered: true });
    expect(body(await call(client, "task_status", { task_id: reply.task_id, wait: true }))).toMatchObject({ status: "completed", answer: "The person kept the account." });
    expect(reported("deleted")).toBe(deletedBefore);
  });
});

describe("the computer tools", () => {
  it("drive a browser step by step by ref and by point, each call a recorded step of a task the app shows", async () => {
    const client = await httpClient(app.url, { [INSTALL_TOKEN_HEADER]: app.system.installToken });
    const opened = body<{ computer_id: string }>(await call(client, "open_computer", { start_url: pages.url("form.html") }));
    const computer_id = opened.computer_id;
    const view = await call(client, "page_view", { computer_id, filter: "interactive" });
    const outline = view.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
    const button = /button "Press me"[^\n]*\[(ref_\d+)\]/.exec(outline)?.[1];
    expect(button, outline).toBeTruthy();
    const clicksBefore = reported("clicked");
    const clicked = await call(client, "click", { computer_id, target: { type: "ref", ref: button } });
    expect(body(clicked)).toMatchObject({ ok: true, step: 2 });
    await expect.poll(() => reported("clicked")).toBe(clicksBefore + 1);
    // The click put the focus in the field: typing goes there.
    expect(body(await call(client, "type", { computer_id, text: "Ada" }))).toMatchObject({ ok: true });
    await pages.waitForRecord("typed:Ada");
    expect(body(await call(client, "key", { computer_id, text: "End" }))).toMatchObject({ ok: true });
    const shot = await call(client, "screenshot", { computer_id });
    const image = shot.content.find((c) => c.type === "image");
    expect(image).toMatchObject({ mimeType: expect.stringMatching(/^image\//) });
    // A point of the screenshot: the button's centre.
    expect(body(await call(client, "click", { computer_id, target: { type: "coordinate", x: 200, y: 130 } }))).toMatchObject({ ok: true });
    expect(body(await call(client, "scroll", { computer_id, scroll_direction: "down", target: { type: "coordinate", x: 300, y: 300 } }))).toMatchObject({ ok: true });
    expect(body(await call(client, "navigate", { computer_id, url: pages.url("article.html") }))).toMatchObject({ ok: true, url: pages.url("article.html") });
    // A client's calls may go past the tool agent's 15 steps, up to MAX_STEPS.
    for (let look = 0; look < 8; look++) expect((await call(client, "page_view", { computer_id, filter: "interactive" })).isError).toBeFalsy();
    const closed = body(await call(client, "close_computer", { computer_id, summary: "Typed the name." }));
    expect(closed).toMatchObject({ status: "completed" });
    const { json: task } = await app.api<TaskReply>("GET", `/api/tasks/${computer_id}`);
    expect(task.task).toMatchObject({ status: "completed", answer: "Typed the name.", model: "MCP client" });
    expect(task.steps.map((s) => s.tool?.name)).toEqual(["read_page", "left_click", "type", "key", "screenshot", "left_click", "scroll", "navigate", ...Array<string>(8).fill("read_page")]);
    // A computer that is closed takes no more calls.
    const late = await call(client, "page_view", { computer_id });
    expect(late.isError).toBe(true);
  });

  it("answer an action the policy asks about with needs approval, and do it only once answer_person allows it", async () => {
    const client = await httpClient(app.url, { [INSTALL_TOKEN_HEADER]: app.system.installToken });
    const { computer_id } = body<{ computer_id: string }>(await call(client, "open_computer", { start_url: pages.url("approvals.html") }));
    const outline = (await call(client, "page_view", { computer_id })).content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
    const ref = /button "Delete account"[^\n]*\[(ref_\d+)\]/.exec(outline)?.[1];
    const clickDelete = async () => body<{ status: string; waits_for: { approval_id: string; asks: string[] } }>(await call(client, "click", { computer_id, target: { type: "ref", ref } }));
    // Refused: the call's result says so, and nothing was deleted.
    const deletedBefore = reported("deleted");
    const first = await clickDelete();
    const refused = await call(client, "answer_person", { task_id: computer_id, approval_id: first.waits_for.approval_id, approved: false });
    expect(refused.isError).toBe(true);
    expect(body(refused)).toMatchObject({ ok: false, error: { code: "DENIED" } });
    const asked = await clickDelete();
    expect(asked).toMatchObject({ status: "needs_approval", waits_for: { asks: [expect.stringContaining("may delete")] } });
    expect(reported("deleted")).toBe(deletedBefore);
    // Another call waits for the decision first.
    expect((await call(client, "page_view", { computer_id })).isError).toBe(true);
    const done = await call(client, "answer_person", { task_id: computer_id, approval_id: asked.waits_for.approval_id, approved: true });
    expect(body(done)).toMatchObject({ ok: true, computer_id });
    await expect.poll(() => reported("deleted")).toBe(deletedBefore + 1);
    // The person may decide in the app instead; the computer then takes calls again.
    const again = await clickDelete();
    expect(again).toMatchObject({ status: "needs_approval" });
    const approved = await app.api("POST", "/api/chat/approve", { task_id: computer_id, approval_id: again.waits_for.approval_id, approved: true });
    expect(approved.status).toBe(202);
    await expect.poll(() => reported("deleted")).toBe(deletedBefore + 2);
    await expect.poll(async () => (await call(client, "page_view", { computer_id })).isError ?? false).toBe(false);
    await call(client, "close_computer", { computer_id });
  });

  it("stop the computers a client left open when its MCP session ends", async () => {
    const client = await httpClient(app.url, { [INSTALL_TOKEN_HEADER]: app.system.installToken });
    const { computer_id } = body<{ computer_id: string }>(await call(client, "open_computer", { start_url: pages.url("form.html") }));
    const transport = client.transport as StreamableHTTPClientTransport;
    await transport.terminateSession();
    await client.close();
    await expect.poll(async () => (await app.api<TaskReply>("GET", `/api/tasks/${computer_id}`)).json.task.status, { timeout: 30_000 }).toBe("stopped");
  });
});

describe("an HTTP session its client left without ending it", () => {
  it("is closed once idle, with the computers it left open, but never while a call is under way", async () => {
    const idle = await startApp({ modelBaseUrl: model.baseUrl, config: { limits: { mcpSessionIdleMs: 1_500 }, approvals: ALLOW_EVERYTHING } });
    try {
      const headers = { [INSTALL_TOKEN_HEADER]: idle.system.installToken };
      model.route((r) => planningText(r).includes("Task: slower than the idle time"), { ...act("done", { answer: "Done after a while." }), delayMs: 4_000 });
      const working = await httpClient(idle.url, headers);
      const { reply } = await runTask(working, { text: "slower than the idle time", start_url: pages.url("form.html") });
      expect(reply).toMatchObject({ status: "completed", answer: "Done after a while." });

      const leaving = await httpClient(idle.url, headers);
      const { computer_id } = body<{ computer_id: string }>(await call(leaving, "open_computer", { start_url: pages.url("form.html") }));
      const sessionId = (leaving.transport as StreamableHTTPClientTransport).sessionId!;
      // Gone without its DELETE, as a client that crashed.
      await leaving.close();
      await expect.poll(async () => (await idle.api<TaskReply>("GET", `/api/tasks/${computer_id}`)).json.task.status, { timeout: 30_000 }).toBe("stopped");
      const late = await fetch(`${idle.url}/mcp`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": sessionId },
        body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
      });
      expect(late.status).toBe(404);
      expect(await late.text()).toContain("initialize a new one");
    } finally {
      await idle.close();
    }
  });
});

describe("a client that can ask the person (MCP elicitation)", () => {
  it("asks them about a flagged action and runs it once they allow it, in the same call; and asks them to act for a task that needs them", async () => {
    const asked: string[] = [];
    const client = new Client({ name: "mcp-test", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      const { message, requestedSchema } = request.params as { message: string; requestedSchema: { properties: Record<string, unknown> } };
      asked.push(message);
      return "approve" in requestedSchema.properties ? { action: "accept", content: { approve: true } } : { action: "accept", content: { done: true, note: "I logged in myself" } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers: { [INSTALL_TOKEN_HEADER]: app.system.installToken } } }));
    clients.push(client);

    const { computer_id } = body<{ computer_id: string }>(await call(client, "open_computer", { start_url: pages.url("approvals.html") }));
    const outline = (await call(client, "page_view", { computer_id })).content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
    const ref = /button "Delete account"[^\n]*\[(ref_\d+)\]/.exec(outline)?.[1];
    const deletedBefore = reported("deleted");
    expect(body(await call(client, "click", { computer_id, target: { type: "ref", ref } }))).toMatchObject({ ok: true, computer_id });
    expect(asked).toEqual([expect.stringContaining("may delete")]);
    await expect.poll(() => reported("deleted")).toBe(deletedBefore + 1);
    await call(client, "close_computer", { computer_id });

    model.route(
      (r) => planningText(r).includes("Task: sign in where asked"),
      act("needs_user", { answer: "Please sign in, then tell me." }, "Waiting for the sign-in"),
      act("done", { answer: "Signed in." }, "Done"),
    );
    const { reply } = await runTask(client, { text: "sign in where asked", start_url: pages.url("form.html"), agent_mode: "actions" });
    expect(reply).toMatchObject({ status: "completed", answer: "Signed in." });
    expect(asked[1]).toBe("Please sign in, then tell me.");
    const { json: messages } = await app.api<{ messages: { text: string }[] }>("GET", `/api/sessions/${reply.session_id}/messages`);
    expect(messages.messages.map((m) => m.text)).toContain("I logged in myself");
  });
});

describe("who may use /mcp", () => {
  let server: ChildProcess | undefined;
  afterAll(() => void server?.kill());

  it("refuses a web page's request (another origin) and a rebound host name, as the API does", async () => {
    const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "page", version: "1" } } };
    const post = (headers: Record<string, string>) =>
      fetch(`${app.url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", [INSTALL_TOKEN_HEADER]: app.system.installToken, ...headers },
        body: JSON.stringify(initialize),
      });
    expect((await post({ origin: "https://evil.example" })).status).toBe(403);
    // fetch will not send another Host; a DNS-rebound page's requests do.
    const rebound = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${app.url}/mcp`);
      request({ host: url.hostname, port: url.port, path: url.pathname, method: "GET", headers: { host: "evil.example", accept: "text/event-stream" } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on("error", reject)
        .end();
    });
    expect(rebound).toBe(403);
    const own = await post({});
    expect(own.status).toBe(200);
    await own.body?.cancel();
  });

  it("refuses a client without the sign-in token, and serves one with it", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "easyagentcu-mcp-signin-"));
    const child = (server = spawn(process.execPath, ["bin/easyagentcu.js", "serve", "--host", "0.0.0.0", "--port", "0", "--data-dir", dataDir], {
      env: { ...process.env, MODEL_BASE_URL: model.baseUrl, LOG_LEVEL: "silent" },
      stdio: ["ignore", "pipe", "inherit"],
    }));
    const link = await new Promise<URL>((resolve, reject) => {
      let out = "";
      child.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const found = /Sign in by opening (\S+)/.exec(out)?.[1];
        if (found) resolve(new URL(found));
      });
      child.once("exit", (code) => reject(new Error(`server exited with ${code}: ${out}`)));
    });
    const url = `http://127.0.0.1:${link.port}`;
    const install = await readFile(path.join(dataDir, "install-token"), "utf8");
    await expect(httpClient(url, { [INSTALL_TOKEN_HEADER]: install })).rejects.toThrow(/401|Sign in/);
    const signedIn = await httpClient(url, { [INSTALL_TOKEN_HEADER]: install, authorization: `Bearer ${link.searchParams.get("token")}` });
    const { tools } = await signedIn.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["answer_person", "click", "close_computer", "key", "navigate", "open_computer", "page_view", "run_task", "screenshot", "scroll", "stop_task", "task_status", "type"]);
    // Signed in, a call that changes state still needs the install token, as the API's do.
    await expect(httpClient(url, { authorization: `Bearer ${link.searchParams.get("token")}` })).rejects.toThrow(/403|install|x-easyagentcu-token/i);
  });
});
