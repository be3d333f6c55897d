// What goes wrong gets a clear answer and loses nothing: invalid bodies, unknown ids, malformed
// or hostile planner output. And an SSE client receives everything: one that reconnects, exactly
// what it missed; one that subscribes before the session exists, its events once they come.
import { existsSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { request } from "node:http";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { INSTALL_TOKEN_HEADER, INSTALL_TOKEN_META, type SessionEvent, type TaskReply } from "../../src/protocol/index.ts";
import { WEB_DIR } from "../../src/cli/system.ts";
import { startApp } from "../support/app.ts";
import { kept, openStream } from "../support/sse.ts";
import { act, planningText, userText, type ScriptedModel } from "../support/scripted-model.ts";
import { useWorld } from "../support/world.ts";

// The model's key is long enough to be recognised wherever an error echoes it.
const { model, pages, app } = useWorld({ config: { model: { apiKey: "test-key-echoed-0123" } } });
type ErrorJson = { error: { code: string; message: string } };

async function runTask(session: string, task: string, ...replies: Parameters<ScriptedModel["script"]>) {
  model.route((r) => planningText(r).includes(`Task: ${task}`), ...replies);
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text: task, start_url: pages.url("form.html") });
  const events = await openStream(app.url, session, 0);
  const end = await events.waitForEnd(json.task_id);
  events.close();
  const requests = model.requests.filter((r) => planningText(r).includes(`Task: ${task}`));
  return { taskId: json.task_id, end, events: events.events, requests };
}

describe("invalid requests", () => {
  it.each([
    ["not JSON", "{nope", "The request body must be a JSON object."],
    ["no text", { session_id: "s1" }, "text:"],
    ["empty text", { session_id: "s1", text: "   " }, "text: must not be empty"],
    ["bad session id", { session_id: "../x", text: "hi" }, "session_id: must contain only letters"],
    ["bad start_url", { session_id: "s1", text: "hi", start_url: "javascript:alert(1)" }, "start_url"],
    ["bad attachment", { session_id: "s1", text: "hi", attachments: [{ name: "a.txt" }] }, "attachments.0.mime_type"],
    ["unknown mode", { session_id: "s1", text: "hi", mode: "magic" }, "mode:"],
  ])("POST /api/chat/send with %s → 400 naming the field", async (_, body, message) => {
    const reply = await app.api<ErrorJson>("POST", "/api/chat/send", body);
    expect(reply.status).toBe(400);
    expect(reply.json.error.code).toBe("INVALID_BODY");
    expect(reply.json.error.message).toContain(message);
  });

  it.each([
    ["POST", "/api/chat/stop", { task_id: "task_unknown" }],
    ["POST", "/api/chat/ack-user-action", { task_id: "task_unknown" }],
    ["GET", "/api/tasks/task_unknown", undefined],
    ["GET", "/api/frames/frame_unknown", undefined],
    ["GET", "/api/sessions/nobody/messages", undefined],
    ["GET", "/api/sessions/nobody/tasks", undefined],
    ["GET", "/api/no-such-route", undefined],
  ] as const)("%s %s with an unknown id → 404", async (method, route, body) => {
    const reply = await app.api<ErrorJson>(method, route, body);
    expect(reply.status).toBe(404);
    expect(reply.json.error.code).toBe("NOT_FOUND");
  });

  it("GET /api/chat/stream with a malformed session id → 400", async () => {
    const reply = await app.api<ErrorJson>("GET", "/api/chat/stream?session_id=..%2Fx");
    expect(reply.status).toBe(400);
    expect(reply.json.error).toMatchObject({ code: "INVALID_BODY", message: expect.stringContaining("session_id: must contain only letters") });
  });

  it("keeps serving after all of that", async () => {
    expect((await app.api("GET", "/api/health")).json).toEqual({ ok: true, computer: "browser" });
    const created = await app.api<{ id: string }>("POST", "/api/sessions", { title: "Fresh" });
    expect(created.status).toBe(201);
    const sessions = await app.api<{ sessions: { id: string }[] }>("GET", "/api/sessions");
    expect(sessions.json.sessions.map((s) => s.id)).toContain(created.json.id);
  });
});

describe("malformed planner output", () => {
  it("repairs fenced and wrapped JSON without asking again", async () => {
    const fenced = "Sure!\n```json\n" + JSON.stringify({ thought: "t", progress: "Pressing", action: { type: "click", args: { x: "200", y: 130 } } }) + "\n```";
    const wrapped = `Here you go: {"thought": "t", "progress": "Finished", "action": {"type": "done", "args": {"answer": "ok {braces} inside"}}} Hope that helps.`;
    const run = await runTask("s-repair", "repair me", { text: fenced }, { text: wrapped });
    expect(run.end).toMatchObject({ type: "task.completed", answer: "ok {braces} inside" });
    expect(run.requests).toHaveLength(2);
    await pages.waitForRecord("clicked");
  });

  it("feeds the validation error back and fails after 2 retries with a message that says why", async () => {
    const run = await runTask("s-notjson", "not json", { text: "I think you should click the button." }, { text: "still no" }, { text: "never" });
    expect(run.end.type).toBe("task.failed");
    expect(run.end).toMatchObject({ error: { code: "PLANNER_INVALID_OUTPUT" } });
    expect((run.end as Extract<SessionEvent, { type: "task.failed" }>).error.message).toContain("after 2 retries: the answer contains no JSON object");
    expect(run.requests).toHaveLength(3);
    const retry = run.requests[1]!;
    expect(retry.body.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(userText(retry)).toContain("Your answer could not be used: the answer contains no JSON object");
  });

  it("rejects an unknown action and coordinates outside the screenshot, executing neither", async () => {
    const run = await runTask(
      "s-invalid",
      "bad actions",
      act("teleport", { x: 1, y: 1 }),
      act("click", { x: 5000, y: 130 }),
      act("done", { answer: "gave up" }),
    );
    expect(run.end).toMatchObject({ type: "task.completed", answer: "gave up" });
    expect(userText(run.requests[1]!)).toContain("action.type");
    expect(userText(run.requests[2]!)).toContain("(5000, 130) is outside the screenshot, which is 1280×800 pixels");
    expect(pages.records.filter((r) => r === "clicked")).toHaveLength(1); // only the repair test's click
    const { json } = await app.api<TaskReply>("GET", `/api/tasks/${run.taskId}`);
    expect(json.steps.map((s) => s.action?.type)).toEqual(["done"]);
  });

  it("does not open file: URLs a model asks for, and tells the model why", async () => {
    const run = await runTask("s-hostile", "hostile", act("navigate", { url: "file:///etc/passwd" }, "Reading files"), act("done", { answer: "ok" }));
    expect(run.end.type).toBe("task.completed");
    const { json } = await app.api<TaskReply>("GET", `/api/tasks/${run.taskId}`);
    expect(json.steps[0]?.text).toContain("navigate accepts only http(s) URLs, not file:");
    expect(json.steps[0]?.url).toBe(pages.url("form.html"));
    expect(planningText(run.requests[1]!)).toContain("→ failed: navigate accepts only http(s) URLs");
  });

  it("fails the task with the endpoint's status when the model keeps answering HTTP 500", async () => {
    const boom = { status: 500, body: '{"error":"boom"}' };
    const run = await runTask("s-500", "server error", boom, boom, boom, boom);
    expect(run.requests).toHaveLength(4);
    expect(run.end).toMatchObject({ type: "task.failed", error: { code: "MODEL_HTTP_ERROR" } });
    expect((run.end as Extract<SessionEvent, { type: "task.failed" }>).error.message).toContain("HTTP 500");
  });

  it("refuses a 50 MB answer without reading it whole, and the task says why", async () => {
    const huge = { status: 200, body: `{"choices":[{"message":{"content":"${"x".repeat(50 * 1024 * 1024)}"}}]}` };
    const run = await runTask("s-huge", "huge answer", huge);
    expect(run.end).toMatchObject({ type: "task.failed", error: { code: "MODEL_HTTP_ERROR", message: expect.stringContaining("larger than 8 MB") } });
    expect(JSON.stringify(run.events).length).toBeLessThan(100_000);
  });

  it("never records or shows the key when the endpoint's error echoes it", async () => {
    const echo = { status: 401, body: '{"error":"invalid api key test-key-echoed-0123"}' };
    const run = await runTask("s-echo", "echoed key", echo);
    const error = (run.end as Extract<SessionEvent, { type: "task.failed" }>).error;
    expect(error.message).not.toContain("test-key-echoed-0123");
    expect(error.message).toContain("[redacted]");
    const stored = (await app.api<TaskReply>("GET", `/api/tasks/${run.taskId}`)).json;
    expect(JSON.stringify(stored)).not.toContain("test-key-echoed-0123");
  });
});

describe("the SSE stream", () => {
  it("a client that subscribes before its first message receives that session's events, in order, on the open stream", async () => {
    model.route((r) => planningText(r).includes("Task: listen first"), act("done", { answer: "heard it" }));
    const early = await openStream(app.url, "s-early");
    const sessions = await app.api<{ sessions: { id: string }[] }>("GET", "/api/sessions");
    expect(sessions.json.sessions.map((s) => s.id)).not.toContain("s-early");

    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-early", text: "listen first", start_url: pages.url("form.html") });
    const end = await early.waitForEnd(json.task_id);
    early.close();
    expect(end).toMatchObject({ type: "task.completed", answer: "heard it" });
    expect(early.events[0]).toMatchObject({ type: "task.started", task_id: json.task_id });
    // Nothing lost or reordered: every id from the session's first on, then the same as a replay.
    expect(early.events.map((e) => e.id)).toEqual(early.events.map((_, i) => i + 1));
    const replay = await openStream(app.url, "s-early", 0);
    await replay.waitForEnd(json.task_id);
    replay.close();
    expect(kept(early.events)).toEqual(kept(replay.events));
  });


  it("a client that reconnects with Last-Event-ID receives exactly the events it missed (of live frames and activities, the latest)", async () => {
    model.route(
      (r) => planningText(r).includes("Task: reconnect"),
      act("click", { x: 200, y: 130 }, "one"),
      { ...act("type", { text: "x" }, "two"), delayMs: 300 },
      { ...act("keypress", { keys: ["ctrl", "a"] }, "three"), delayMs: 300 },
      { ...act("done", { answer: "all there" }, "four"), delayMs: 300 },
    );
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-reconnect", text: "reconnect" });
    const first = await openStream(app.url, "s-reconnect", 0);
    await first.waitFor((e) => e.type === "progress.append");
    first.close();
    const seen = [...first.events];
    const lastId = seen.at(-1)!.id;

    await new Promise((r) => setTimeout(r, 400)); // events keep coming while the client is away
    const second = await openStream(app.url, "s-reconnect", lastId);
    await second.waitForEnd(json.task_id);
    second.close();

    const everything = await openStream(app.url, "s-reconnect", 0);
    await everything.waitForEnd(json.task_id);
    everything.close();
    expect(second.events.every((e) => e.id > lastId)).toBe(true);
    expect(kept([...seen, ...second.events])).toEqual(kept(everything.events));
    expect(kept(second.events).length).toBeGreaterThan(0);
    // A replay holds one live frame per task: the newest.
    const live = everything.events.filter((e) => e.type === "screen.live");
    expect(live).toHaveLength(1);
    expect(live[0]!.id).toBe(Math.max(...[...seen, ...second.events].filter((e) => e.type === "screen.live").map((e) => e.id)));
    // And one activity at most: what the agent did last.
    expect(everything.events.filter((e) => e.type === "task.activity").length).toBeLessThanOrEqual(1);
  });
});

describe("requests from elsewhere", () => {
  const send = (headers: Record<string, string>) =>
    fetch(`${app.url}/api/chat/send`, { method: "POST", headers, body: JSON.stringify({ session_id: "s-cross", text: "read my files" }) });

  it("refuses a cross-site form post, a foreign origin and a rebound host name", async () => {
    const plain = await send({ "content-type": "text/plain", [INSTALL_TOKEN_HEADER]: app.system.installToken });
    expect(plain.status).toBe(400);
    expect(((await plain.json()) as ErrorJson).error.message).toContain("content-type: application/json");
    const foreign = await send({ "content-type": "application/json", origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    // fetch will not send another Host; a DNS-rebound page's requests do.
    const rebound = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${app.url}/api/sessions`);
      request({ host: url.hostname, port: url.port, path: url.pathname, headers: { host: "evil.example" } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on("error", reject)
        .end();
    });
    expect(rebound).toBe(403);
    const sessions = await app.api<{ sessions: { id: string }[] }>("GET", "/api/sessions");
    expect(sessions.json.sessions.map((s) => s.id)).not.toContain("s-cross");
  });

  it("changes nothing without the install token, which only the UI's page and the data dir hold", async () => {
    for (const token of [null, "", "x".repeat(43), `${app.system.installToken}x`]) {
      const reply = await send({ "content-type": "application/json", ...(token === null ? {} : { [INSTALL_TOKEN_HEADER]: token }) });
      expect(reply.status).toBe(403);
      expect(((await reply.json()) as ErrorJson).error.message).toContain(`needs the ${INSTALL_TOKEN_HEADER} header`);
    }
    expect((await fetch(`${app.url}/api/sessions`)).status).toBe(200);
    expect(existsSync(path.join(WEB_DIR, "index.html")), "the UI is built (npm run build), as npm test does first").toBe(true);
    const page = await fetch(`${app.url}/s/any-session`);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(await page.text()).toContain(`<meta name="${INSTALL_TOKEN_META}" content="${app.system.installToken}">`);
    const file = path.join(app.dataDir, "install-token");
    expect(await readFile(file, "utf8")).toBe(app.system.installToken);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const sessions = await app.api<{ sessions: { id: string }[] }>("GET", "/api/sessions");
    expect(sessions.json.sessions.map((s) => s.id)).not.toContain("s-cross");
  });

  it("may not be framed by any site, and the UI runs only its own scripts", async () => {
    for (const route of ["/", "/api/sessions"]) {
      const reply = await fetch(`${app.url}${route}`);
      expect(reply.headers.get("x-frame-options")).toBe("DENY");
      const csp = reply.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
    }
  });

  it("refuses file: start URLs, bodies over 25 MB and broken data: URLs", async () => {
    const file = await app.api<ErrorJson>("POST", "/api/chat/send", { mode: "task", session_id: "s-file", text: "x", start_url: "file:///etc/passwd" });
    expect(file.status).toBe(400);
    expect(file.json.error.message).toContain("start_url: must be an http(s) URL");
    const huge = await fetch(`${app.url}/api/chat/send`, { method: "POST", headers: { "content-type": "application/json" }, body: "x".repeat(26 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    const broken = await app.api<ErrorJson>("POST", "/api/chat/send", {
      session_id: "s-broken",
      text: "x",
      attachments: [{ name: "a.txt", mime_type: "text/plain", data_url: "data:,%E0%A4%A" }],
    });
    expect(broken.status).toBe(400);
    expect(broken.json.error.message).toContain("attachments.0.data_url");
  });
});

describe("a client that sends too much", () => {
  it("is answered 429 with Retry-After once its burst is spent, and served again after it", async () => {
    const limited = await startApp({ modelBaseUrl: model.baseUrl, config: { limits: { ratePerSecond: 2 } } });
    try {
      // A burst of 30, refilled at 2 a second while the requests go out (slowly on a loaded machine).
      const began = performance.now();
      let served = 0;
      let refused = await fetch(`${limited.url}/api/sessions`);
      while (refused.status === 200 && served < 100) {
        served += 1;
        await refused.arrayBuffer();
        refused = await fetch(`${limited.url}/api/sessions`);
      }
      expect(refused.status).toBe(429);
      expect(served).toBeGreaterThanOrEqual(30);
      expect(served).toBeLessThanOrEqual(30 + Math.ceil(((performance.now() - began) / 1000) * 2));
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(((await refused.json()) as ErrorJson).error).toMatchObject({ code: "RATE_LIMITED", message: expect.stringContaining("at most 2 a second") });
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect((await limited.api("GET", "/api/sessions")).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
