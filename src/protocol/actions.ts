// The unified action vocabulary (seed 000 §3.4.1, seed 002's extra kinds) and the JSON planner's
// answer (PROTOCOL.md). Coordinates are integer pixels of the screenshot as sent to the model.
import { z } from "zod";

const coord = z.number().int();
const point = { x: coord, y: coord };

export const MOUSE_BUTTONS = ["left", "right", "middle"] as const;
/**
 * One wheel notch (a click of the wheel, pyautogui.scroll's unit) in a scroll's pixels, as a
 * browser counts it: planners whose models scroll in notches send this many pixels a notch, and a
 * desktop turns the pixels back into as many notches.
 */
export const WHEEL_NOTCH_PX = 100;
export const MAX_WAIT_MS = 10_000;

export const actionArgsSchemas = {
  click: z.object({ ...point, button: z.enum(MOUSE_BUTTONS).default("left") }),
  double_click: z.object(point),
  triple_click: z.object(point),
  right_click: z.object(point),
  move: z.object(point),
  drag: z.object({ ...point, end_x: coord, end_y: coord }),
  scroll: z.object({ ...point, scroll_x: coord.default(0), scroll_y: coord.default(0) }),
  type: z.object({ text: z.string().min(1) }),
  keypress: z.object({ keys: z.array(z.string().min(1)).min(1) }),
  /** The keys held down together for `ms`, then released. */
  hold_key: z.object({ keys: z.array(z.string().min(1)).min(1), ms: z.number().int().min(0).max(MAX_WAIT_MS) }),
  wait: z.object({ ms: z.number().int().min(0).max(MAX_WAIT_MS).default(1000) }),
  navigate: z.object({ url: z.string().min(1) }),
  /**
   * The message's attachment `name` put into the file input at the point; without a point, into
   * the file chooser the page (or the desktop's file dialog) has open. A point is both or neither.
   */
  upload: z
    .object({ name: z.string().min(1), x: coord.optional(), y: coord.optional() })
    .refine((args) => (args.x === undefined) === (args.y === undefined), { message: "give both x and y, or neither" }),
  done: z.object({ answer: z.string().min(1) }),
  needs_user: z.object({ answer: z.string().min(1) }),
} as const;

export type ActionType = keyof typeof actionArgsSchemas;

const common = {
  intent: z.string().default(""),
  requires_verification: z.boolean().default(false),
};

function actionOf<T extends ActionType>(type: T) {
  return z.object({ type: z.literal(type), args: actionArgsSchemas[type], ...common });
}

export const actionSchema = z.discriminatedUnion("type", [
  actionOf("click"),
  actionOf("double_click"),
  actionOf("triple_click"),
  actionOf("right_click"),
  actionOf("move"),
  actionOf("drag"),
  actionOf("scroll"),
  actionOf("type"),
  actionOf("keypress"),
  actionOf("hold_key"),
  actionOf("wait"),
  actionOf("navigate"),
  actionOf("upload"),
  actionOf("done"),
  actionOf("needs_user"),
]);
export type Action = z.infer<typeof actionSchema>;
export type ActionOf<T extends ActionType> = Extract<Action, { type: T }>;

/**
 * A planner's call of a tool the page declares for agents (WebMCP, issue 35): the tool's name as
 * the page declared it and its arguments, checked against the tool's own input schema before it
 * runs. It touches no screen, so it is no {@link Action}: the planner driver carries it out as the
 * tool agent's pageTool, and the hands never see it.
 */
export const pageToolActionSchema = z.object({
  type: z.literal("page_tool"),
  args: z.object({ name: z.string().min(1).max(200), arguments: z.record(z.string(), z.unknown()).default({}) }),
  ...common,
});
export type PageToolAction = z.infer<typeof pageToolActionSchema>;

/** What a planner may answer: an action on the screen, or a call of one of the page's tools. */
export type PlannerAction = Action | PageToolAction;

/** The one JSON object a planner answers with at each step. */
export const plannerAnswerSchema = z.object({
  thought: z.string().default(""),
  progress: z.string().default(""),
  action: z.discriminatedUnion("type", [...actionSchema.options, pageToolActionSchema]),
});
export type PlannerAnswer = z.infer<typeof plannerAnswerSchema>;

/** Actions that end the loop instead of touching the computer. */
export type FinalAction = ActionOf<"done"> | ActionOf<"needs_user">;
export function isFinal(action: PlannerAction): action is FinalAction {
  return action.type === "done" || action.type === "needs_user";
}

/** The point an action acts on, if it has one (screenshot pixels as sent). */
export function actionPoint(action: Action): { x: number; y: number } | null {
  switch (action.type) {
    case "click":
    case "double_click":
    case "triple_click":
    case "right_click":
    case "move":
    case "drag":
    case "scroll":
      return { x: action.args.x, y: action.args.y };
    case "upload":
      return uploadPoint(action);
    default:
      return null;
  }
}

/** Where an upload puts its file: the file input at its point, or null for the file chooser already open. */
export function uploadPoint(action: ActionOf<"upload">): { x: number; y: number } | null {
  const { x, y } = action.args;
  return x === undefined || y === undefined ? null : { x, y };
}

/** A short label for timelines and history lines, e.g. `click (412, 230)`. */
export function describeAction(action: Action): string {
  switch (action.type) {
    case "click":
      return action.args.button === "left"
        ? `click (${action.args.x}, ${action.args.y})`
        : `${action.args.button} click (${action.args.x}, ${action.args.y})`;
    case "double_click":
    case "triple_click":
    case "right_click":
    case "move":
      return `${action.type.replace("_", " ")} (${action.args.x}, ${action.args.y})`;
    case "drag":
      return `drag (${action.args.x}, ${action.args.y}) → (${action.args.end_x}, ${action.args.end_y})`;
    case "scroll":
      return `scroll (${action.args.scroll_x}, ${action.args.scroll_y}) at (${action.args.x}, ${action.args.y})`;
    case "type":
      return `type ${JSON.stringify(truncate(action.args.text, 40))}`;
    case "keypress":
      return `keypress ${action.args.keys.join("+")}`;
    case "hold_key":
      return `hold ${action.args.keys.join("+")} ${action.args.ms} ms`;
    case "wait":
      return `wait ${action.args.ms} ms`;
    case "navigate":
      return `navigate ${action.args.url}`;
    case "upload": {
      const at = uploadPoint(action);
      return `upload ${JSON.stringify(truncate(action.args.name, 40))}${at ? ` at (${at.x}, ${at.y})` : ""}`;
    }
    case "done":
      return "done";
    case "needs_user":
      return "needs user";
  }
}

/** A step's label: its action's, or its tool call's as the tool named it (`ariaTree`, `act "press Save"`). */
export function describeStep(step: { action: Action | null; tool: { name: string; label?: string | null } | null }): string {
  if (step.action) return describeAction(step.action);
  if (!step.tool) return "";
  return step.tool.label ?? step.tool.name;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
