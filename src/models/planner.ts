// The planner interface of seed 000 §5.1. One call answers all three roles: the next action,
// the step's progress summary (`progress`) and, with `done`/`needs_user`, the final answer.
import type { Action, Attachment, Usage } from "../protocol/index.ts";
import type { Screenshot } from "../computers/computer.ts";

export interface PlannerInput {
  task: string;
  /** Files the person attached to the task. */
  attachments: Attachment[];
  /** 1-based number of the step being planned. */
  step: number;
  /** One line per earlier step, oldest first, e.g. `Step 3: click (10, 20) — opened the menu`. */
  history: string[];
  screenshot: Screenshot;
  url: string | null;
}

export interface PlannerTurn {
  thought: string;
  progress: string;
  action: Action;
  usage: Usage;
  /** Which planner answered, as the step records it. */
  planner: string;
}

export interface Planner {
  readonly name: string;
  next(input: PlannerInput, signal: AbortSignal): Promise<PlannerTurn>;
}
