// One error class with a code, an actionable message and whether a retry may help (STYLE habit 4).
import type { ErrorCode } from "../protocol/index.ts";

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;

  constructor(code: ErrorCode, message: string, options: { retryable?: boolean; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.retryable = options.retryable ?? false;
  }
}

/** The reason a task's signal is aborted with when a person presses Stop. */
export class StopRequested extends Error {
  constructor(readonly reason = "stopped by the user") {
    super(reason);
    this.name = "StopRequested";
  }
}

/** The first line of an error's message: Playwright's carry a call log after it. */
export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n")[0] ?? text;
}

/** Turns anything thrown into a code and a message a person can act on. */
export function toTaskError(error: unknown): { code: ErrorCode; message: string } {
  if (error instanceof AppError) return { code: error.code, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { code: "INTERNAL", message };
}
