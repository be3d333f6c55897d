// A first run without a key, fixed from the app: the person tests a model's address and key,
// saves them, and the next task and the next chat answer use them, without a restart. The key stays
// in the data dir, readable by its owner only, and no reply ever carries it back.
import { readFile, stat } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ModelSettingsReply, ModelStatusReply, SessionEvent } from "../../src/protocol/index.ts";
import { startApp, type TestApp } from "../support/app.ts";
import { openStream } from "../support/sse.ts";
import { act, isChatTurn, planningText, type Reply } from "../support/scripted-model.ts";
import { useWorld } from "../support/world.ts";

const { model, pages } = useWorld({ app: false });
const CLOUD = "https://dashscope.aliyuncs.com/compatible-mode/v1";
const KEY = "sk-set-in-the-app-0123456789wxyz";
type ErrorJson = { error: { code: string; message: string } };

let app: TestApp;
afterAll(async () => app?.close());

/** A model server's address where nothing listens. */
async function deadAddress(): Promise<string> {
  const server = createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/v1`;
}

async function runTask(session: string, text: string, mode: "task" | "auto", reply: Reply = act("done", { answer: `did ${text}` })): Promise<SessionEvent> {
  model.route((r) => planningText(r).includes(`Task: ${text}`), reply);
  const events = await openStream(app.url, session, 0);
  await app.api("POST", "/api/chat/send", { mode, session_id: session, text, start_url: pages.url("form.html") });
  const started = await events.waitFor((e) => e.type === "task.started");
  const end = await events.waitForEnd((started as Extract<SessionEvent, { type: "task.started" }>).task.id);
  events.close();
  return end;
}

describe("setting the model in the app", () => {
  it("starts without a key: the status says so, and the settings say where each value comes from", async () => {
    app = await startApp({ modelBaseUrl: CLOUD, config: { model: { apiKey: "" } } });
    expect((await app.api<ModelStatusReply>("GET", "/api/model-status")).json).toMatchObject({ ready: false, problem: "no_key" });
    const { json } = await app.api<ModelSettingsReply>("GET", "/api/settings/model");
    expect(json).toMatchObject({ provider: "qwen", model: "scripted-vl", base_url: CLOUD, key: { set: false, last4: null } });
    expect(json.from).toEqual({ provider: "default", model: "env", base_url: "default", key: "default" });
  });

  it("tests proposed settings without saving them", async () => {
    const proposed = { provider: "qwen", model: "scripted-vl", base_url: model.baseUrl, api_key: KEY };
    expect((await app.api<ModelStatusReply>("POST", "/api/settings/model/test", proposed)).json).toEqual({ ready: true });
    const dead = await deadAddress();
    const down = await app.api<ModelStatusReply>("POST", "/api/settings/model/test", { ...proposed, base_url: dead });
    expect(down.json).toMatchObject({ ready: false, problem: "unreachable", endpoint: dead });
    expect((await app.api<ModelStatusReply>("GET", "/api/model-status")).json).toMatchObject({ ready: false, problem: "no_key" });
    await expect(stat(path.join(app.dataDir, "model-settings.json"))).rejects.toThrow(/ENOENT/);
  });

  it("saves them owner-only in the data dir and never sends the key back", async () => {
    const saved = await app.api<ModelSettingsReply>("PUT", "/api/settings/model", { provider: "qwen", model: "scripted-vl", base_url: model.baseUrl, api_key: KEY });
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({ base_url: model.baseUrl, key: { set: true, last4: "wxyz" }, from: { base_url: "app", key: "app", model: "app" } });
    const shown = await app.api("GET", "/api/settings/model");
    expect(JSON.stringify([saved.json, shown.json])).not.toContain(KEY.slice(0, -4));
    const file = path.join(app.dataDir, "model-settings.json");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(app.dataDir)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await readFile(file, "utf8"))).toMatchObject({ provider: "qwen", baseUrl: model.baseUrl, apiKey: KEY });
    expect((await app.api<ModelStatusReply>("GET", "/api/model-status")).json).toEqual({ ready: true });
  });

  it("runs the next task and the next chat answer with them, without a restart", async () => {
    const task = await runTask("s-settings-task", "read the form", "task");
    expect(task).toMatchObject({ type: "task.completed", answer: "did read the form" });
    const answer = await runTask("s-settings-chat", "check the page", "auto");
    expect(answer).toMatchObject({ type: "task.completed" });
    const asked = model.requests.filter((r) => isChatTurn(r) || /Task: (read the form|check the page)/.test(planningText(r)));
    expect(asked.some(isChatTurn)).toBe(true);
    expect(asked.length).toBeGreaterThan(2);
    for (const request of asked) expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("keeps an absent key when the model changes, and the saved file wins over the environment after a restart", async () => {
    const renamed = await app.api<ModelSettingsReply>("PUT", "/api/settings/model", { provider: "qwen", model: "scripted-vl-2", base_url: model.baseUrl });
    expect(renamed.json).toMatchObject({ model: "scripted-vl-2", key: { set: true, last4: "wxyz" } });
    const { dataDir } = app;
    await app.close();
    app = await startApp({ modelBaseUrl: CLOUD, dataDir, config: { model: { apiKey: "" } } });
    expect((await app.api<ModelSettingsReply>("GET", "/api/settings/model")).json).toMatchObject({ model: "scripted-vl-2", base_url: model.baseUrl, key: { set: true } });
    expect((await app.api<ModelStatusReply>("GET", "/api/model-status")).json).toEqual({ ready: true });
  });

  it("masks the key set here wherever a model echoes it", async () => {
    const failed = await runTask("s-settings-echo", "echo the key", "task", { status: 400, body: JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}` } }) });
    expect(failed.type).toBe("task.failed");
    const answered = await runTask("s-settings-answer", "say the key", "task", act("done", { answer: `The key is ${KEY}` }, `Read ${KEY}`));
    expect(answered).toMatchObject({ type: "task.completed", answer: "The key is [redacted]" });
    const shown = await Promise.all(["s-settings-echo", "s-settings-answer"].map(async (s) => (await app.api("GET", `/api/sessions/${s}/tasks`)).json));
    expect(JSON.stringify([failed, answered, shown])).not.toContain(KEY);
  });
});

describe("a key set over the environment's", () => {
  it("keeps the environment's key masked after another is set in the app", async () => {
    const envKey = "sk-from-the-environment-5678";
    const before = app;
    app = await startApp({ modelBaseUrl: model.baseUrl, config: { model: { apiKey: envKey } } });
    try {
      await app.api("PUT", "/api/settings/model", { provider: "qwen", model: "scripted-vl", base_url: model.baseUrl, api_key: KEY });
      const end = await runTask("s-settings-env-echo", "say the old key", "task", act("done", { answer: `The old key was ${envKey}` }));
      expect(end).toMatchObject({ type: "task.completed", answer: "The old key was [redacted]" });
    } finally {
      await app.close();
      app = before;
    }
  });
});

describe("settings the server refuses", () => {
  it.each([
    ["an unknown provider", { provider: "acme" }, "provider:"],
    ["an address that is not http(s)", { provider: "qwen", base_url: "ftp://127.0.0.1/v1" }, "base_url: must be an http(s) address"],
    ["a field it does not know", { provider: "qwen", apiKey: "sk-1234" }, "apiKey"],
    ["no provider", { model: "x" }, "provider:"],
    ["not JSON", "{nope", "The request body must be a JSON object."],
  ])("PUT and test with %s → 400 naming the field, nothing saved", async (_, body, message) => {
    for (const [method, route] of [["PUT", "/api/settings/model"], ["POST", "/api/settings/model/test"]] as const) {
      const reply = await app.api<ErrorJson>(method, route, body);
      expect(reply.status).toBe(400);
      expect(reply.json.error.code).toBe("INVALID_BODY");
      expect(reply.json.error.message).toContain(message);
    }
    expect((await app.api<ModelSettingsReply>("GET", "/api/settings/model")).json.model).toBe("scripted-vl-2");
  });

  it("refuses a change without the page's install token", async () => {
    const reply = await app.api<ErrorJson>("PUT", "/api/settings/model", { provider: "qwen" }, { "x-easyagentcu-token": "wrong" });
    expect(reply.status).toBe(403);
  });

  it("answers no one who has not signed in, when the server asks for a sign-in", async () => {
    const guarded = await startApp({ modelBaseUrl: model.baseUrl, config: { authToken: "a-sign-in-token-0123456789" } });
    try {
      for (const [method, route] of [["GET", "/api/settings/model"], ["PUT", "/api/settings/model"], ["POST", "/api/settings/model/test"]] as const) {
        expect((await guarded.api<ErrorJson>(method, route, method === "GET" ? undefined : { provider: "qwen" })).json.error.code).toBe("UNAUTHORIZED");
      }
    } finally {
      await guarded.close();
    }
  });
});
