// A computer that a client outside drives call by call (an MCP client's computer session): the
// task opens as any other, and each call the client sends is one step, run by the tool agent's own
// runner, so the hands, the fence, the approval policy, the budget and the step record are a task's.
// The task ends when the client closes the computer (completed), stops it, or its limits end it.
import { AppError } from "../../core/errors.ts";
import type { ChatModel } from "../../models/chat/chat-model.ts";
import type { ProgressStep } from "../../protocol/index.ts";
import type { AgentTool, ToolOutcome } from "../../tools/index.ts";
import type { Driver, Outcome, RunContext } from "../driver.ts";
import { ToolRunner } from "../tool-runner.ts";

/** What one call did: the tool's outcome and the step it was recorded as. */
export interface CallResult {
  outcome: ToolOutcome;
  step: ProgressStep;
}

interface Call {
  tool: AgentTool;
  input: unknown;
  settle(result: CallResult | Error): void;
}

/** A client's calls cost no model tokens of ours. */
const NO_USAGE = { input_tokens: 0, output_tokens: 0 };

export class ClientDriver implements Driver {
  readonly label = "MCP client";
  private readonly calls: Call[] = [];
  private wake: () => void = () => undefined;
  private closedWith: string | null = null;
  private ended: Error | null = null;
  private markReady: () => void = () => undefined;
  /** Resolves when the computer is open and takes calls. */
  readonly ready = new Promise<void>((resolve) => (this.markReady = resolve));

  /** `model`: what the tools that ask a model (none of a client's, so far) would ask. */
  constructor(private readonly model: ChatModel) {}

  /** Queues a call; it runs after the ones before it, and resolves with its step. */
  call(tool: AgentTool, input: unknown): Promise<CallResult> {
    if (this.ended) return Promise.reject(this.ended);
    if (this.closedWith !== null) return Promise.reject(closed());
    return new Promise((resolve, reject) => {
      this.calls.push({ tool, input, settle: (result) => (result instanceof Error ? reject(result) : resolve(result)) });
      this.wake();
    });
  }

  /** Ends the task, completed with `answer`, once the calls already sent have run. */
  close(answer: string): void {
    this.closedWith ??= answer;
    this.wake();
  }

  async drive(run: RunContext): Promise<Outcome> {
    const runner = new ToolRunner(run, this.model);
    if (run.hands.screen) runner.look(run.hands.screen);
    this.markReady();
    try {
      for (;;) {
        const call = await this.next(run.progress.signal);
        if (!call) return { status: "completed", answer: this.closedWith ?? "" };
        try {
          // The person may have taken the screen meanwhile: the client's points were for the screen before.
          if (await run.gate.pausePoint()) runner.look(await run.hands.capture());
          run.budget.assertStepRoom(run.steps.count);
          const ran = await runner.call(call.tool, call.input, NO_USAGE);
          call.settle({ outcome: ran.outcome, step: await runner.record(ran, ran.label, "") });
        } catch (error) {
          call.settle(error instanceof Error ? error : new Error(String(error)));
          throw error;
        }
      }
    } catch (error) {
      this.ended = error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      this.ended ??= closed();
      for (const call of this.calls.splice(0)) call.settle(this.ended);
    }
  }

  /** The next call, or null once the client closed the computer and every call sent has run. */
  private async next(signal: AbortSignal): Promise<Call | null> {
    for (;;) {
      signal.throwIfAborted();
      const call = this.calls.shift();
      if (call) return call;
      if (this.closedWith !== null) return null;
      await new Promise<void>((resolve) => {
        const done = () => {
          signal.removeEventListener("abort", done);
          resolve();
        };
        this.wake = done;
        signal.addEventListener("abort", done, { once: true });
      });
    }
  }
}

function closed(): AppError {
  return new AppError("TASK_FINISHED", "This computer is closed; open another with open_computer.");
}
