// The planner interface of seed 000 §5.1. One call answers all three roles: the next action,
// the step's progress summary (`progress`) and, with `done`/`needs_user`, the final answer.
import type { Action, Attachment, Usage } from "../protocol/index.ts";
import type { Point, Size } from "../perception/coordinates.ts";
import type { UiElement } from "../perception/elements.ts";
import type { Screenshot } from "../perception/screenshot.ts";

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
  /** The numbered elements on screen, boxes in the screenshot's (model image's) pixels, for planners that ask. */
  elements?: UiElement[];
}

export interface PlannerTurn {
  thought: string;
  progress: string;
  action: Action;
  usage: Usage;
  /** Which planner answered, as the step records it. */
  planner: string;
  /** The model flagged the action: the person must approve it before it runs. */
  approval?: { checks: SafetyCheckNotice[] };
}

export interface SafetyCheckNotice {
  id: string;
  code: string;
  message: string;
}

/** A pointer check before a click (seed 000 §4.1), all points in the pixels of `image`. */
export interface PointerCheckInput {
  intent: string;
  target: Point;
  cursor: Point;
  /** The capture after the move, annotated with circle, arrow and label. */
  image: Screenshot;
}

export interface PointerCheck {
  on_target: boolean;
  /** The move from the cursor to where it should be, in the image's pixels. */
  dx: number;
  dy: number;
  usage: Usage;
}

export interface Planner {
  readonly name: string;
  next(input: PlannerInput, signal: AbortSignal): Promise<PlannerTurn>;
  /** Set-of-Mark planners choose among numbered elements: the runtime finds them for each step. */
  readonly wantsElements?: boolean;
  /** The size the model wants its screenshots fitted into; undefined when it has no preference. */
  imageSize?(screenshot: Size): Size | undefined;
  /** Overrides the global VERIFY_CLICKS for this planner's clicks, when set. */
  readonly verifyClicks?: "requested" | "always" | "never";
  /** The person approved the flagged action about to run (see PlannerTurn.approval). */
  acknowledge?(checks: SafetyCheckNotice[]): void;
  /** Planners that can look at an annotated capture check a click's pointer before it clicks. */
  checkPointer?(input: PointerCheckInput, signal: AbortSignal): Promise<PointerCheck>;
}
