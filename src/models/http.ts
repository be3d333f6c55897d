// The one HTTP exchange every model adapter uses: JSON in, JSON (or a server-sent event stream)
// out, a timeout per attempt, retries with exponential backoff on 429/5xx, timeouts and
// unreachable endpoints (honouring `retry-after`, or Google's RetryInfo in the body), each retry
// told to whoever watches (retry-watch.ts), and Stop, which ends a request or a backoff wait at
// once. A stream is retried only until its first byte: what was streamed is not taken back.
import type { z } from "zod";
import { delay } from "../core/abort.ts";
import { AppError } from "../core/errors.ts";
import { noticeRetry } from "./retry-watch.ts";
import { readSse, type SseEvent } from "./sse.ts";

export interface HttpPolicy {
  timeoutMs: number;
  /** Further attempts after the first one fails in a way a retry may fix. */
  retries: number;
  /** The first backoff; each later one doubles, plus jitter, capped at `maxBackoffMs`. */
  backoffMs: number;
  maxBackoffMs?: number;
}

export interface JsonRequest<S extends z.ZodType> {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  /** The reply's shape, and what to say when a reply does not have it. */
  reply: S;
  notReply: string;
}

export async function postJson<S extends z.ZodType>(request: JsonRequest<S>, policy: HttpPolicy, signal: AbortSignal): Promise<z.infer<S>> {
  for (let attempt = 0; ; attempt++) {
    try {
      const json = await postOnce(request, policy, signal);
      const parsed = request.reply.safeParse(json);
      if (parsed.success) return parsed.data;
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
      throw new AppError("MODEL_HTTP_ERROR", `${request.notReply}: ${where}${issue?.message}`);
    } catch (error) {
      if (!(error instanceof RetryableHttpError) || attempt >= policy.retries) {
        throw error instanceof RetryableHttpError ? error.appError : error;
      }
      noticeRetry({ retry: attempt + 1, of: policy.retries });
      await delay(backoff(attempt, policy, error.retryAfterMs), signal);
    }
  }
}

/** No planner's or chat model's answer comes near this; a larger one is refused unread. */
const MAX_REPLY_BYTES = 8 * 1024 * 1024;
const MAX_ERROR_BYTES = 64 * 1024;

function tooLarge(): AppError {
  return new AppError("MODEL_HTTP_ERROR", `The model endpoint's answer is larger than ${MAX_REPLY_BYTES / 1024 / 1024} MB; it was not read.`);
}

/** The body as text, read no further than `max` bytes: past it, an error (or, `strict` false, what was read). */
async function readCapped(response: Response, max: number, strict = true): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
      if (size > max) {
        if (strict) throw tooLarge();
        break;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).toString("utf8");
}

class RetryableHttpError extends Error {
  constructor(
    readonly appError: AppError,
    readonly retryAfterMs: number | null,
  ) {
    super(appError.message);
  }
}

async function postOnce(request: JsonRequest<z.ZodType>, policy: HttpPolicy, signal: AbortSignal): Promise<unknown> {
  const timeout = AbortSignal.timeout(policy.timeoutMs);
  const text = await guard(request.url, policy, signal, timeout, async () => readCapped(await open(request, signal, timeout), MAX_REPLY_BYTES));
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("MODEL_HTTP_ERROR", `The model endpoint answered something that is not JSON: ${text.slice(0, 200)}`);
  }
}

export interface StreamRequest {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * Posts a request whose reply is a server-sent event stream and yields its events. The timeout
 * is per attempt until the reply starts, then the longest silence allowed between two chunks.
 */
export async function* postStream(request: StreamRequest, policy: HttpPolicy, signal: AbortSignal): AsyncGenerator<SseEvent> {
  let body: ReadableStream<Uint8Array>;
  let idle: IdleTimer;
  for (let attempt = 0; ; attempt++) {
    idle = new IdleTimer(policy.timeoutMs);
    try {
      const response = await guard(request.url, policy, signal, idle.signal, () => open(request, signal, idle.signal));
      const type = response.headers.get("content-type") ?? "";
      if (!type.includes("text/event-stream")) {
        const text = await readCapped(response, MAX_ERROR_BYTES);
        throw new AppError("MODEL_HTTP_ERROR", `The model endpoint answered ${type || "no content type"} instead of an event stream: ${text.slice(0, 200)}`);
      }
      body = response.body!;
      break;
    } catch (error) {
      idle.clear();
      if (!(error instanceof RetryableHttpError) || attempt >= policy.retries) {
        throw error instanceof RetryableHttpError ? error.appError : error;
      }
      noticeRetry({ retry: attempt + 1, of: policy.retries });
      await delay(backoff(attempt, policy, error.retryAfterMs), signal);
    }
  }
  const reader = body.getReader();
  let received = 0;
  try {
    yield* readSse(
      (async function* () {
        for (;;) {
          idle.restart();
          const { done, value } = await guard(request.url, policy, signal, idle.signal, () => reader.read()).catch((error: unknown) => {
            throw error instanceof RetryableHttpError ? error.appError : error;
          });
          if (done) return;
          received += value.byteLength;
          if (received > MAX_REPLY_BYTES) throw tooLarge();
          yield value;
        }
      })(),
    );
  } finally {
    idle.clear();
    // The body is locked to its reader: cancelling through it closes the connection.
    await reader.cancel().catch(() => undefined);
  }
}

/** An AbortSignal that fires after `ms` without a restart. */
class IdleTimer {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly ms: number) {
    this.restart();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  restart(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.controller.abort(), this.ms);
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}

async function open(request: StreamRequest, signal: AbortSignal, timeout: AbortSignal): Promise<Response> {
  const response = await fetch(request.url, {
    method: "POST",
    headers: { "content-type": "application/json", ...request.headers },
    body: JSON.stringify(request.body),
    signal: AbortSignal.any([signal, timeout]),
  });
  if (!response.ok) {
    // An error's body is read only as far as the message shows it.
    const text = await readCapped(response, MAX_ERROR_BYTES, false);
    const retryable = response.status === 429 || response.status >= 500;
    const error = new AppError("MODEL_HTTP_ERROR", `The model endpoint answered HTTP ${response.status}: ${text.slice(0, 300)}`, { retryable });
    if (retryable) throw new RetryableHttpError(error, retryAfter(response.headers) ?? retryInfo(text));
    throw error;
  }
  return response;
}

/** Runs one network operation, turning Stop into its reason and a timeout or a dead endpoint into a retryable error. */
async function guard<T>(url: string, policy: HttpPolicy, signal: AbortSignal, timeout: AbortSignal, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (error instanceof AppError || error instanceof RetryableHttpError) throw error;
    if (timeout.aborted) {
      const message = `The model did not answer within ${policy.timeoutMs / 1000} s (${url}).`;
      throw new RetryableHttpError(new AppError("MODEL_TIMEOUT", message, { retryable: true }), null);
    }
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    const message = `Could not reach the model at ${url}: ${cause}`;
    throw new RetryableHttpError(new AppError("MODEL_UNREACHABLE", message, { retryable: true, cause: error }), null);
  }
}

/** `retry-after` in seconds or as an HTTP date (and `retry-after-ms`, which some providers send). */
export function retryAfter(headers: Headers, now = Date.now()): number | null {
  const ms = Number(headers.get("retry-after-ms"));
  if (headers.get("retry-after-ms") && Number.isFinite(ms)) return Math.max(0, ms);
  const value = headers.get("retry-after");
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/**
 * The wait Google's APIs (Gemini) put in an error's body rather than a header: a google.rpc.RetryInfo
 * detail, `{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "36s"}`.
 */
export function retryInfo(body: string): number | null {
  const delay = /"@type"\s*:\s*"type\.googleapis\.com\/google\.rpc\.RetryInfo"\s*,\s*"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(body);
  return delay ? Math.round(Number(delay[1]) * 1000) : null;
}

function backoff(attempt: number, policy: HttpPolicy, retryAfterMs: number | null): number {
  const cap = policy.maxBackoffMs ?? 30_000;
  if (retryAfterMs !== null) return Math.min(retryAfterMs, cap);
  const exponential = policy.backoffMs * 2 ** attempt;
  return Math.min(cap, exponential + Math.random() * policy.backoffMs);
}
