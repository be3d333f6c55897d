// A finished task as one trajectory (docs/trajectory.md): every step, DOM or pixel, in one shape —
// what was done, to which element (its locator and XPath) or at which point, on which page, with
// its screenshot, timings, tokens and cost. The JSON export, and what the Playwright script is
// written from.
import type { Action, CarriedOut, ElementTarget, FrameRef, ProgressStep, RefAction, StepTimings, Task, Usage } from "../../protocol/index.ts";

export const TRAJECTORY_FORMAT = "easyagentcu.trajectory";
export const TRAJECTORY_VERSION = 1;

export interface TrajectoryTarget {
  /** Playwright locator code (`getByRole('button', { name: 'Send' })`), when the page gave one. */
  locator: string | null;
  xpath: string | null;
  /** Where the element was, in the step screenshot's pixels. */
  box: ElementTarget["box"];
  /** What was done to it (a tool agent's fill, check, select…); null: the step's action, at its point. */
  action: RefAction | null;
}

export interface TrajectoryStep {
  index: number;
  text: string;
  /** `action`: a planner's screen action; `tool`: a tool agent's call; `final`: done, needs_user or the tool agent's close. */
  kind: "action" | "tool" | "final";
  /** False when the action did not run (it failed, or the pointer could not be placed); such a step is not done again. */
  carried_out: boolean;
  /** The computer action, in the step screenshot's pixels; null for a call that amounts to none (ariaTree, navback…). */
  action: Action | null;
  tool: { name: string; label: string | null; input: unknown; ok: boolean; looks_only: boolean } | null;
  /** Where the pointer acted, in the step screenshot's pixels. */
  point: { x: number; y: number } | null;
  /** The elements the step acted on, as they can be found again. */
  targets: TrajectoryTarget[];
  /** The page the step ended on. */
  url: string | null;
  /** The screen after the step, with its size (the pixels every point and box is in). */
  screenshot: FrameRef | null;
  planner: string;
  timings: StepTimings | null;
  usage: Usage;
  cost_usd: number | null;
  created_at: string;
}

export interface Trajectory {
  format: typeof TRAJECTORY_FORMAT;
  version: typeof TRAJECTORY_VERSION;
  task: Pick<Task, "id" | "text" | "mode" | "computer" | "start_url" | "status" | "answer" | "model" | "usage" | "cost_usd" | "replay_of" | "created_at" | "finished_at">;
  /** The CSS pixels of one screenshot pixel's width: points divide by it to land on a page. */
  device_scale_factor: number;
  steps: TrajectoryStep[];
}

/** What the tool table says of a tool by its name: whether it only looks, and whether it ends the task. */
export type ToolFacts = (name: string) => { looks: boolean; ends: boolean };

/** The task's steps as a trajectory. */
export function trajectoryOf(task: Task, steps: ProgressStep[], deviceScaleFactor: number, facts: ToolFacts): Trajectory {
  const { id, text, mode, computer, start_url, status, answer, model, usage, cost_usd, replay_of, created_at, finished_at } = task;
  return {
    format: TRAJECTORY_FORMAT,
    version: TRAJECTORY_VERSION,
    task: { id, text, mode, computer, start_url, status, answer, model, usage, cost_usd, replay_of, created_at, finished_at },
    device_scale_factor: deviceScaleFactor,
    steps: steps.map((step) => stepOf(step, facts)),
  };
}

function stepOf(step: ProgressStep, facts: ToolFacts): TrajectoryStep {
  const { tool } = step;
  const known = tool ? facts(tool.name) : null;
  const final = known ? known.ends : step.action?.type === "done" || step.action?.type === "needs_user";
  const point = step.cursor_x !== null && step.cursor_y !== null ? { x: step.cursor_x, y: step.cursor_y } : null;
  return {
    index: step.index,
    text: step.text,
    kind: final ? "final" : tool ? "tool" : "action",
    carried_out: tool ? tool.ok : final || step.carried_out !== null,
    action: tool ? step.action : (step.carried_out?.action ?? step.action),
    tool: tool ? { name: tool.name, label: tool.label, input: tool.input, ok: tool.ok, looks_only: known!.looks } : null,
    point,
    targets: tool ? tool.targets.map(({ target, action }) => ({ ...target, action })) : elementOf(step.carried_out),
    url: step.url,
    screenshot: step.screenshot,
    planner: step.planner,
    timings: step.timings ?? null,
    usage: step.usage,
    cost_usd: step.cost_usd,
    created_at: step.created_at,
  };
}

function elementOf(carried: CarriedOut | null): TrajectoryTarget[] {
  return carried?.element ? [{ ...carried.element, action: null }] : [];
}
