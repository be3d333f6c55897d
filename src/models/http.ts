// The one HTTP exchange every model adapter uses: JSON in, JSON out, a timeout per attempt,
// retries with exponential backoff on 429/5xx, timeouts and unreachable endpoints (honouring
// `retry-after`), and Stop, which ends a request or a backoff wait at once.
import type { z } from "zod";
import { delay } from "../core/abort.ts";
import { AppError } from "../core/errors.ts";

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
      await delay(backoff(attempt, policy, error.retryAfterMs), signal);
    }
  }
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
  let response: Response;
  let text: string;
  try {
    response = await fetch(request.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...request.headers },
      body: JSON.stringify(request.body),
      signal: AbortSignal.any([signal, timeout]),
    });
    text = await response.text();
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (timeout.aborted) {
      const message = `The model did not answer within ${policy.timeoutMs / 1000} s (${request.url}).`;
      throw new RetryableHttpError(new AppError("MODEL_TIMEOUT", message, { retryable: true }), null);
    }
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    const message = `Could not reach the model at ${request.url}: ${cause}`;
    throw new RetryableHttpError(new AppError("MODEL_UNREACHABLE", message, { retryable: true, cause: error }), null);
  }
  if (!response.ok) {
    const retryable = response.status === 429 || response.status >= 500;
    const error = new AppError("MODEL_HTTP_ERROR", `The model endpoint answered HTTP ${response.status}: ${text.slice(0, 300)}`, { retryable });
    if (retryable) throw new RetryableHttpError(error, retryAfter(response.headers));
    throw error;
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("MODEL_HTTP_ERROR", `The model endpoint answered something that is not JSON: ${text.slice(0, 200)}`);
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

function backoff(attempt: number, policy: HttpPolicy, retryAfterMs: number | null): number {
  const cap = policy.maxBackoffMs ?? 30_000;
  if (retryAfterMs !== null) return Math.min(retryAfterMs, cap);
  const exponential = policy.backoffMs * 2 ** attempt;
  return Math.min(cap, exponential + Math.random() * policy.backoffMs);
}
