// The scripted model server (test support, not product): OpenAI Chat Completions
// (`/chat/completions`), OpenAI Responses (`/responses`), Anthropic Messages (`/v1/messages`) and
// Gemini (`/models/{model}:generateContent`, `:streamGenerateContent`) endpoints on 127.0.0.1 that
// answer from a script and record every request, so tests can assert on what the project sent.
// Only the model is scripted, and only here, at the HTTP boundary.
//
// The chat assistant's requests (its system prompt names EasyAgentCU's assistant) have a script
// of their own. When it is empty the model behaves as a plain delegating assistant: it hands the
// person's message to `computer_task` as it is, and adds nothing once the task has ended — so a
// test about tasks can send through the chat like a person and script only the planner.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { browserToolsetProblem } from "./scripted-anthropic.ts";
import { GEMINI_PATH, geminiError, geminiRequestProblem, geminiSystem, geminiText, writeGeminiStream, type GeminiRequest } from "./scripted-gemini.ts";
import { writeChatStream, type ScriptedChat } from "./scripted-stream.ts";

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage["headers"];
  body: ChatBody;
  /** When the request had fully arrived, and when its reply was sent (ms since the epoch). */
  at: number;
  answeredAt?: number;
}

export interface ChatBody {
  model: string;
  messages: {
    role: string;
    content: string | null | { type: string; text?: string; content?: unknown; image_url?: { url: string } }[];
    tool_calls?: unknown[];
  }[];
  response_format?: { type: string };
  stream?: boolean;
  system?: string | { type: string; text: string }[];
  tools?: Record<string, unknown>[];
  /** Gemini's request carries these instead of `messages` and `system`. */
  contents?: GeminiRequest["contents"];
  systemInstruction?: GeminiRequest["systemInstruction"];
}

/**
 * One scripted reply: for Chat Completions an answer object (sent as the message's JSON text) or
 * raw text; for any endpoint a whole reply body (`message`) or an HTTP failure. With `until`, it is
 * held until the test settles that promise (then `delayMs` more): the test decides when a step ends.
 */
export type Reply = (
  | { answer: unknown; delayMs?: number }
  | { text: string; delayMs?: number }
  | { message: unknown; delayMs?: number }
  | { status: number; body?: string; delayMs?: number; headers?: Record<string, string> }
  /** A streamed chat reply, in the protocol of the endpoint asked. */
  | { chat: ScriptedChat; delayMs?: number }
  /** A raw event stream; with `hang` it never ends. */
  | { sse: string; hang?: boolean; delayMs?: number }
) & { until?: Promise<unknown> };

/** A reply made from the request, as a model reads what it was sent (an ARIA tree's refs). */
export type Responder = (request: RecordedRequest) => Reply;

export interface ScriptedModel {
  baseUrl: string;
  requests: RecordedRequest[];
  /** Queues replies, answered in order. */
  script(...replies: Reply[]): void;
  /** Answers requests for which `when` holds from their own queue (for concurrent tasks). */
  route(when: (request: RecordedRequest) => boolean, ...replies: (Reply | Responder)[]): void;
  /** Queues replies to the chat assistant's requests. */
  chat(...replies: Reply[]): void;
  close(): Promise<void>;
}

export async function startScriptedModel(): Promise<ScriptedModel> {
  const requests: RecordedRequest[] = [];
  const queue: Reply[] = [];
  const chatQueue: Reply[] = [];
  const routes: { when: (r: RecordedRequest) => boolean; replies: (Reply | Responder)[] }[] = [];

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: ChatBody;
      try {
        body = JSON.parse(text) as ChatBody;
      } catch {
        res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "bad json" } }));
        return;
      }
      const request: RecordedRequest = { path: req.url ?? "", headers: req.headers, body, at: Date.now() };
      requests.push(request);
      const gemini = GEMINI_PATH.test(request.path);
      const known = gemini || ["/chat/completions", "/v1/messages", "/responses"].some((path) => request.path.endsWith(path));
      if (req.method !== "POST" || !known) {
        res.writeHead(404).end();
        return;
      }
      // Gemini refuses a request without its key header or with a field its reference does not have.
      const problem = gemini ? (req.headers["x-goog-api-key"] ? geminiRequestProblem(body) : "Method doesn't allow unregistered callers.") : null;
      if (problem) {
        const forbidden = !req.headers["x-goog-api-key"];
        res.writeHead(forbidden ? 403 : 400, { "content-type": "application/json" }).end(geminiError(forbidden ? 403 : 400, forbidden ? "PERMISSION_DENIED" : "INVALID_ARGUMENT", problem));
        return;
      }
      // Anthropic refuses a request whose browser toolset entry or member results break its reference.
      const refused = request.path.endsWith("/v1/messages") ? browserToolsetProblem(body as Parameters<typeof browserToolsetProblem>[0]) : null;
      if (refused) {
        res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: refused } }));
        return;
      }
      const route = routes.find((r) => r.replies.length > 0 && r.when(request));
      const next = route ? route.replies.shift() : isChatTurn(request) ? (chatQueue.shift() ?? delegate(request)) : queue.shift();
      const reply = typeof next === "function" ? next(request) : next;
      const send = () => {
        if (res.destroyed) return;
        request.answeredAt = Date.now();
        if (reply && "chat" in reply) {
          void (gemini ? writeGeminiStream(res, reply.chat) : writeChatStream(res, request.path, body.model, reply.chat));
        } else if (reply && "sse" in reply) {
          res.writeHead(200, { "content-type": "text/event-stream" }).write(reply.sse);
          if (!reply.hang) res.end();
        } else if (!reply) {
          res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "script exhausted" } }));
        } else if ("message" in reply) {
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply.message));
        } else if ("status" in reply) {
          res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers }).end(reply.body ?? "{}");
        } else {
          const content = "text" in reply ? reply.text : JSON.stringify(reply.answer);
          // A request that asks for a stream gets the same answer streamed, as a real server sends it.
          if (body.stream) void writeChatStream(res, request.path, body.model, { text: content });
          else res.writeHead(200, { "content-type": "application/json" }).end(completion(body.model, content));
        }
      };
      const delayMs = reply?.delayMs ?? 0;
      const answer = () => {
        if (delayMs > 0) {
          const timer = setTimeout(send, delayMs);
          res.on("close", () => clearTimeout(timer));
        } else send();
      };
      if (reply?.until) void reply.until.then(answer, answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...replies) => queue.push(...replies),
    route: (when, ...replies) => routes.push({ when, replies }),
    chat: (...replies) => chatQueue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function completion(model: string, content: string): string {
  return JSON.stringify({
    id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: 1200, completion_tokens: 60, total_tokens: 1260 },
  });
}

/** The system prompt of a request, in any of the three protocols. */
export function systemText(request: RecordedRequest): string {
  const { system, messages } = request.body;
  if (request.body.systemInstruction) return geminiSystem(request.body);
  if (typeof system === "string") return system;
  if (Array.isArray(system)) return system.map((b) => b.text).join("\n");
  const first = messages?.[0];
  return first?.role === "system" && typeof first.content === "string" ? first.content : "";
}

/** A request of the chat assistant rather than of a planner. */
export function isChatTurn(request: RecordedRequest): boolean {
  return systemText(request).startsWith("You are the assistant of EasyAgentCU");
}

/** The chat assistant's default: the person's message becomes a task; after the task, nothing to add. */
function delegate(request: RecordedRequest): Reply {
  const { contents } = request.body;
  const last = request.body.messages?.at(-1);
  const isPerson = contents
    ? contents.at(-1)!.role === "user" && contents.at(-1)!.parts.every((part) => "text" in part)
    : last?.role === "user" && (typeof last.content === "string" || last.content?.every((part) => part.type === "text"));
  if (!isPerson) return { chat: {} };
  const task = userText(request)
    .split("\n")
    .filter((line) => !/^\((Attached|Start URL given): /.test(line))
    .join("\n");
  return { chat: { calls: [{ name: "computer_task", arguments: { task } }] } };
}

/** The text parts of a request's last user message. */
export function userText(request: RecordedRequest): string {
  const { contents } = request.body;
  if (contents) return geminiText([...contents].reverse().find((c) => c.role === "user"));
  const last = [...request.body.messages].reverse().find((m) => m.role === "user");
  if (!last?.content) return "";
  if (typeof last.content === "string") return last.content;
  return last.content.map((p) => p.text ?? "").join("\n");
}

/** The text of the first user message: the task and step of a planning request. */
export function planningText(request: RecordedRequest): string {
  const { contents } = request.body;
  if (contents) return geminiText(contents.find((c) => c.role === "user"));
  // OpenAI's Responses wire sends `input`, not chat messages: no planning text there.
  const first = (request.body.messages ?? []).find((m) => m.role === "user");
  if (!first?.content) return "";
  return typeof first.content === "string" ? first.content : first.content.map((p) => p.text ?? "").join("\n");
}

/** A planner answer in the PROTOCOL.md format. */
export function act(type: string, args: Record<string, unknown>, progress = `${type} step`): Reply {
  return { answer: { thought: `I will ${type}.`, progress, action: { type, args, intent: progress, requires_verification: false } } };
}
