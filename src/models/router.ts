// The router of seed 002 §2.1: an ordered chain of planners for one task. When the current one
// fails in a way another model may not — the endpoint still answers 5xx/429 or times out after
// its retries, or the output is still unusable after repair — the next one takes over for the
// rest of the task. Each step records which planner acted. The router answers `capabilities()`
// for its active planner; a fallback that wants its input prepared otherwise throws Replan.
import type { Logger } from "pino";
import { AppError } from "../core/errors.ts";
import type { Size } from "../perception/coordinates.ts";
import { Replan, type Planner, type PlannerCapabilities, type PlannerInput, type PlannerTurn } from "./planner.ts";

export class Router implements Planner {
  readonly name: string;
  private current = 0;
  /** The screenshot size the step's input was prepared for, as last asked through `capabilities()`. */
  private screen: Size | null = null;

  constructor(
    private readonly planners: Planner[],
    private readonly log?: Logger,
  ) {
    this.name = planners.map((p) => p.name).join(" → ");
  }

  private get active(): Planner {
    return this.planners[this.current]!;
  }

  capabilities(screenshot: Size): PlannerCapabilities {
    this.screen = { width: screenshot.width, height: screenshot.height };
    return this.active.capabilities(screenshot);
  }

  discard(reason: string): void {
    this.active.discard?.(reason);
  }

  async next(input: PlannerInput, signal: AbortSignal): Promise<PlannerTurn> {
    for (;;) {
      try {
        return await this.active.next(input, signal);
      } catch (error) {
        if (signal.aborted || !fallsBack(error) || this.current === this.planners.length - 1) throw error;
        const from = this.active;
        this.current++;
        this.log?.warn({ from: from.name, to: this.active.name, err: error }, "planner failed; falling back");
        // A caller that never asked prepared nothing for a planner: the image it sent is the size to compare at.
        const screen = this.screen ?? input.screenshot;
        if (!samePreparation(from.capabilities(screen), this.active.capabilities(screen))) throw new Replan(this.active.name);
      }
    }
  }
}

/** Whether an input prepared for one planner suits the other: the same elements and image size. */
function samePreparation(a: PlannerCapabilities, b: PlannerCapabilities): boolean {
  return a.elements === b.elements && a.imageSize?.width === b.imageSize?.width && a.imageSize?.height === b.imageSize?.height;
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
