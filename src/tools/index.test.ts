import { describe, expect, it } from "vitest";
import { AppError } from "../core/errors.ts";
import { Progress } from "../core/progress.ts";
import { runTool } from "./index.ts";
import type { ToolContext } from "./tool.ts";

// runTool reads only these of the context; the rest goes to the tool as it is.
const context = { progress: Progress.of(new AbortController().signal), perform: async () => undefined, approve: async () => undefined, askPerson: async () => "" } as unknown as ToolContext;

describe("runTool", () => {
  it("gives the model a failure's code and message, and says when the same call may work if tried again (seed 004 §5.1)", async () => {
    const timedOut = await runTool("extract", () => Promise.reject(new AppError("MODEL_TIMEOUT", "The model did not answer.", { retryable: true })), context, 5_000);
    expect(timedOut).toEqual({ ok: false, error: { code: "MODEL_TIMEOUT", message: "The model did not answer.", retryable: true } });
    const refused = await runTool("click", () => Promise.reject(new AppError("INVALID_TARGET", "No such element.")), context, 5_000);
    expect(refused).toEqual({ ok: false, error: { code: "INVALID_TARGET", message: "No such element." } });
    const broken = await runTool("click", () => Promise.reject(new Error("boom")), context, 5_000);
    expect(broken).toEqual({ ok: false, error: { code: "ACTION_FAILED", message: "boom" } });
  });

  it("ends the task when the computer is gone, which no call gets past", async () => {
    const crashed = new AppError("BROWSER_CRASHED", "The browser closed unexpectedly.", { retryable: true });
    await expect(runTool("click", () => Promise.reject(crashed), context, 5_000)).rejects.toBe(crashed);
  });

  it("fails a call past its deadline", async () => {
    const slow = await runTool("wait", (ctx) => new Promise((_, reject) => ctx.progress.signal.addEventListener("abort", () => reject(ctx.progress.signal.reason))), context, 50);
    expect(slow).toEqual({ ok: false, error: { code: "ACTION_FAILED", message: "wait took longer than 0.05 s." } });
  });
});
