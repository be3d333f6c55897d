// The router of seed 002 §2.1: an ordered chain of planners for one task. When the current one
// fails in a way another model may not — the endpoint still answers 5xx/429 or times out after
// its retries, or the output is still unusable after repair — the next one takes over for the
// rest of the task. Each step records which planner acted.
import type { Logger } from "pino";
import { AppError } from "../core/errors.ts";
import type { Size } from "../perception/coordinates.ts";
import type { Planner, PlannerInput, PlannerTurn, PointerCheck, PointerCheckInput, SafetyCheckNotice } from "./planner.ts";

export class Router implements Planner {
  readonly name: string;
  private current = 0;

  constructor(
    private readonly planners: Planner[],
    private readonly log?: Logger,
  ) {
    this.name = planners.map((p) => p.name).join(" → ");
  }

  private get active(): Planner {
    return this.planners[this.current]!;
  }

  get verifyClicks() {
    return this.active.verifyClicks;
  }

  imageSize(screenshot: Size): Size | undefined {
    return this.active.imageSize?.(screenshot);
  }

  async next(input: PlannerInput, signal: AbortSignal): Promise<PlannerTurn> {
    for (;;) {
      try {
        return await this.active.next(input, signal);
      } catch (error) {
        if (signal.aborted || !fallsBack(error) || this.current === this.planners.length - 1) throw error;
        this.log?.warn({ from: this.active.name, to: this.planners[this.current + 1]!.name, err: error }, "planner failed; falling back");
        this.current++;
      }
    }
  }

  checkPointer(input: PointerCheckInput, signal: AbortSignal): Promise<PointerCheck> {
    const planner = this.active;
    if (!planner.checkPointer) throw new AppError("PLANNER_INVALID_OUTPUT", `${planner.name} cannot check a pointer.`);
    return planner.checkPointer(input, signal);
  }

  acknowledge(checks: SafetyCheckNotice[]): void {
    this.active.acknowledge?.(checks);
  }
}

export function fallsBack(error: unknown): boolean {
  if (!(error instanceof AppError)) return false;
  switch (error.code) {
    case "MODEL_TIMEOUT":
    case "MODEL_UNREACHABLE":
    case "PLANNER_INVALID_OUTPUT":
      return true;
    case "MODEL_HTTP_ERROR":
      return error.retryable;
    default:
      return false;
  }
}
