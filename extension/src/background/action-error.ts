// The one error an action throws: a code of the contract, a message a person can act on, and
// whether trying again may help (by default what §5.1 says of the code).
import { RETRYABLE_CODES, type ExtensionError, type ExtensionErrorCode } from "../../../src/protocol/extension.ts";

export class ActionError extends Error {
  constructor(
    readonly code: ExtensionErrorCode,
    message: string,
    readonly retryable: boolean = RETRYABLE_CODES.has(code),
  ) {
    super(message);
    this.name = "ActionError";
  }
}

/** Any thrown thing as the wire's error; what is not an ActionError becomes ACTION_FAILED. */
export function toWireError(err: unknown): ExtensionError {
  if (err instanceof ActionError) return { code: err.code, message: err.message, retryable: err.retryable };
  return { code: "ACTION_FAILED", message: errorMessage(err), retryable: false };
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === "string") return err;
  try {
    return JSON.stringify(err);
  } catch {
    return String(err);
  }
}
