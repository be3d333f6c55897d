// Maps errors to HTTP replies: AppError codes to statuses, anything else to a 500 that does not
// leak internals. Every error reply has the shape `{error: {code, message}}`.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";
import { AppError } from "../core/errors.ts";
import type { ErrorCode, ErrorReply } from "../protocol/index.ts";

const STATUS: Partial<Record<ErrorCode, ContentfulStatusCode>> = {
  INVALID_BODY: 400,
  NOT_FOUND: 404,
  FORBIDDEN: 403,
  UNAUTHORIZED: 401,
  SESSION_BUSY: 409,
  BROWSER_BUSY: 409,
  TASK_FINISHED: 409,
  ANSWER_FINISHED: 409,
  NOT_REPLAYABLE: 409,
  NOT_EXPORTABLE: 409,
  TASK_NOT_ENDED: 409,
  NOT_CONTINUABLE: 409,
  FOLLOW_UP_REFUSED: 409,
  TASK_NOT_AWAITING_USER: 409,
  TASK_NOT_TAKEN_OVER: 409,
  TASK_NOT_RUNNING: 409,
  NO_SUCH_APPROVAL: 409,
  BROWSER_UNAVAILABLE: 503,
};

export function errorReply(c: Context, error: unknown): Response {
  if (error instanceof AppError) {
    const body: ErrorReply = { error: { code: error.code, message: error.message } };
    return c.json(body, STATUS[error.code] ?? 500);
  }
  const body: ErrorReply = { error: { code: "INTERNAL", message: "Internal server error." } };
  return c.json(body, 500);
}

/** Parses a JSON body with a schema; a 400 names the field that is wrong. */
export async function parseBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  // A JSON content type cannot be sent cross-site without a CORS preflight, which we never grant.
  if (!/^application\/json\b/i.test(c.req.header("content-type") ?? "")) {
    throw new AppError("INVALID_BODY", "The request body must be JSON, sent with content-type: application/json.");
  }
  let json: unknown;
  try {
    json = await c.req.json();
  } catch {
    throw new AppError("INVALID_BODY", "The request body must be a JSON object.");
  }
  return parseWith(schema, json, "body");
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join(".") : what}: ${issue.message}`)
    .join("; ");
  throw new AppError("INVALID_BODY", `Invalid ${what}: ${issues}`);
}

export function notFound(what: string, id: string): AppError {
  return new AppError("NOT_FOUND", `No ${what} with id ${JSON.stringify(id)}.`);
}
