// Every route of the API takes random and malformed bodies, headers, ids and queries (fast-check)
// and answers each with a status below 500 — a 4xx as `{error: {code, message}}` — and the server
// goes on serving. Valid sends go to three sessions only, so the work they start stays small.
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { INSTALL_TOKEN_HEADER } from "../../src/protocol/index.ts";
import { useWorld } from "../support/world.ts";

const { app } = useWorld();

const statuses = new Map<number, number>();
afterAll(() => {
  const total = [...statuses.values()].reduce((a, b) => a + b, 0);
  console.log(`api fuzz: ${total} requests; by status ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`);
});

const nasty = fc.constantFrom("../../etc/passwd", "%ZZ", "%00", "%2e%2e%2f", "a".repeat(5000), "🙂", "你好", "__proto__", "constructor", "task_x", "frame_x.jpg", " ", "\u0000", "null", "-1", "1e309");
const anId = fc.oneof(fc.string({ maxLength: 120 }), fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/), nasty);
const anyJson = fc.oneof(fc.jsonValue({ maxDepth: 3 }), nasty, fc.constant({ __proto__: { polluted: true } }), fc.constant({ constructor: { prototype: { polluted: true } } }));
/** An object with the route's own keys, each holding anything. */
const shaped = (keys: string[], overrides: Record<string, fc.Arbitrary<unknown>> = {}) =>
  fc.record(Object.fromEntries(keys.map((k) => [k, overrides[k] ?? anyJson])), { requiredKeys: [] });
const contentTypes = fc.constantFrom("application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "", "application/json; charset=latin1");
const headers = fc.record(
  {
    "content-type": contentTypes,
    "last-event-id": fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom("-1", "99999999999999999999", "1.5", "0x10")),
    accept: fc.constantFrom("*/*", "text/event-stream", "application/json", "garbage"),
    "x-custom": fc.string({ maxLength: 50 }).map((s) => s.replace(/[^\x20-\x7e]/g, "")),
  },
  { requiredKeys: [] },
);
const body = (shape: fc.Arbitrary<unknown>) => fc.oneof(shape, anyJson, fc.string({ maxLength: 200 }), fc.constant("{"), fc.constant("[]"), fc.constant(""));

const SEND_KEYS = ["session_id", "text", "attachments", "start_url", "model", "mode", "agent_mode", "cdp_url", "cdp_target_id"];
const sendShape = shaped(SEND_KEYS, {
  session_id: fc.oneof(fc.constantFrom("fz-a", "fz-b", "fz-c"), anId),
  text: fc.oneof(fc.string({ maxLength: 100 }), anyJson),
  mode: fc.constantFrom("auto", "bogus", 7, null),
  attachments: fc.oneof(anyJson, fc.array(shaped(["name", "mime_type", "data_url"], { data_url: fc.oneof(fc.constantFrom("data:,x", "data:text/plain;base64,@@", "data:;base64,"), anyJson) }), { maxLength: 3 })),
});

/** Sends that are nearly valid: a known session and text, and one field that may be wrong. */
const nearlyValidSend = fc.record(
  {
    session_id: fc.constantFrom("fz-a", "fz-b", "fz-c"),
    text: fc.string({ minLength: 1, maxLength: 300 }),
    start_url: fc.oneof(fc.webUrl(), fc.constantFrom("about:blank", "javascript:alert(1)", "file:///etc/passwd", "http://169.254.169.254/")),
    agent_mode: fc.constantFrom("actions", "dom", "hybrid", "nope"),
  },
  { requiredKeys: ["session_id", "text"] },
);

type Request = { method: string; path: string; body?: unknown; headers?: Record<string, string> };

async function send(request: Request): Promise<void> {
  const controller = new AbortController();
  let reply: Response;
  try {
    const raw = typeof request.body === "string" ? request.body : request.body === undefined ? undefined : JSON.stringify(request.body);
    reply = await fetch(`${app.url}${request.path}`, {
      method: request.method,
      headers: { "content-type": "application/json", [INSTALL_TOKEN_HEADER]: app.system.installToken, ...request.headers },
      body: request.method === "GET" ? undefined : raw,
      signal: controller.signal,
    });
  } catch (error) {
    // fetch itself refuses some of what is generated (a header it cannot send): nothing reached the server.
    if (error instanceof TypeError) return;
    throw error;
  }
  statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
  expect(reply.status, `${request.method} ${request.path}`).toBeLessThan(500);
  if ((reply.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    controller.abort();
    return;
  }
  const text = await reply.text();
  if (reply.status >= 400 && request.path.startsWith("/api/")) {
    const json = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    expect(typeof json.error?.code, `${request.method} ${request.path} → ${text.slice(0, 200)}`).toBe("string");
    expect(typeof json.error?.message).toBe("string");
  }
}

const path = (id: string, encode: boolean) => (encode ? encodeURIComponent(id) : id.replace(/[/?#\s]/g, "_"));
const RUNS = 500;

describe("the API under fuzzing", () => {
  const posts: [string, fc.Arbitrary<unknown>][] = [
    ["/api/chat/send", fc.oneof(sendShape, nearlyValidSend)],
    ["/api/chat/stop", shaped(["task_id", "message_id"], { task_id: anId, message_id: anId })],
    ["/api/chat/approve", shaped(["task_id", "approval_id", "approved"], { task_id: anId, approval_id: anId })],
    ["/api/chat/ack-user-action", shaped(["task_id", "text"], { task_id: anId })],
    ["/api/chat/replay", shaped(["task_id"], { task_id: anId })],
    ["/api/sessions", shaped(["title"])],
  ];
  for (const [route, shape] of posts) {
    it(`POST ${route} answers every body and header with a clear 4xx or a success`, async () => {
      await fc.assert(fc.asyncProperty(body(shape), headers, async (b, h) => send({ method: "POST", path: route, body: b, headers: h })), { numRuns: RUNS });
    });
  }

  const reads = ["/api/sessions/:id/messages", "/api/sessions/:id/tasks", "/api/tasks/:id", "/api/frames/:id"];
  for (const route of reads) {
    it(`GET ${route} answers every id`, async () => {
      await fc.assert(fc.asyncProperty(anId, fc.boolean(), headers, async (id, encode, h) => send({ method: "GET", path: route.replace(":id", path(id, encode)), headers: h })), { numRuns: RUNS });
    });
  }

  it("GET /api/chat/stream answers every query and Last-Event-ID", async () => {
    const query = fc.record({ session_id: anId, last_event_id: fc.oneof(fc.string({ maxLength: 20 }), fc.integer().map(String)) }, { requiredKeys: [] });
    await fc.assert(
      fc.asyncProperty(query, headers, async (q, h) => send({ method: "GET", path: `/api/chat/stream?${new URLSearchParams(q as Record<string, string>)}`, headers: h })),
      { numRuns: RUNS },
    );
  });

  it("answers any method on any path", async () => {
    const method = fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD");
    const anyPath = fc.oneof(
      fc.webPath(),
      anId.map((id) => `/api/${path(id, false)}`),
      fc.constantFrom("/api/", "/api/chat", "/api/chat/send/extra", "/api//sessions", "/api/sessions/%ZZ/tasks", "/login?token=", "/login?token=%00", "/index.html", "/s/x"),
    );
    await fc.assert(fc.asyncProperty(method, anyPath, body(anyJson), headers, async (m, p, b, h) => send({ method: m, path: p.startsWith("/") ? p : `/${p}`, body: b, headers: h })), { numRuns: RUNS * 2 });
  });

  it("requests without the install token change nothing and are refused plainly", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...posts.map(([route]) => route)), body(anyJson), fc.string({ maxLength: 60 }), async (route, b, token) =>
        send({ method: "POST", path: route, body: b, headers: { [INSTALL_TOKEN_HEADER]: token.replace(/[^\x20-\x7e]/g, "") } }),
      ),
      { numRuns: RUNS },
    );
  });

  it("still serves afterwards", async () => {
    expect((await app.api("GET", "/api/sessions")).status).toBe(200);
    expect((await app.api("GET", "/api/health")).status).toBe(200);
  });
});
