// Translates Gemini's predefined computer-use functions into our actions. Points are on Gemini's
// 0–999 grid over the image sent (grid.ts); one function may become a sequence (type_text_at is a
// click, an optional clearing, the typing and an optional Enter), carried out one step each.
// Arguments that do not fit are refused with a reason the model reads in the function response.
import { normalizeChord } from "../../computers/keys.ts";
import type { Size } from "../../perception/coordinates.ts";
import { actionSchema, type Action } from "../../protocol/index.ts";
import { fromGrid, gridToPixels, GRID } from "./grid.ts";

/** The functions only a browser can carry out: excluded on a desktop. */
export const BROWSER_ONLY = ["open_web_browser", "navigate", "go_back", "go_forward", "search"] as const;

/** Where the model's `search` starts, as Google's reference client does it. */
export const SEARCH_HOME = "https://www.google.com";
/** scroll_at's magnitude when the model names none, on the grid (the reference's default). */
const DEFAULT_MAGNITUDE = 800;
const WAIT_MS = 5000;

export type Translated =
  /** The steps to carry out, in order; `focus` marks a click that only puts the caret in the field typed into next. */
  | { kind: "act"; actions: Action[]; focusFirst: boolean }
  /** Nothing to do: the function is answered with the screen as it is. */
  | { kind: "screenshot" }
  | { kind: "refuse"; reason: string };

export function translate(name: string, args: Record<string, unknown>, image: Size, intent: string): Translated {
  const common = { intent, requires_verification: false };
  const at = () => point(args, "x", "y", image);
  const steps = (raw: unknown[], focusFirst = false): Translated => {
    const actions: Action[] = [];
    for (const step of raw) {
      const parsed = actionSchema.safeParse({ ...(step as object), ...common });
      if (!parsed.success) return { kind: "refuse", reason: `invalid ${name}: ${parsed.error.issues[0]?.message}` };
      actions.push(parsed.data);
    }
    return { kind: "act", actions, focusFirst };
  };
  try {
    switch (name) {
      case "open_web_browser":
        return { kind: "screenshot" };
      case "click_at":
        return steps([{ type: "click", args: { ...at(), button: "left" } }]);
      case "hover_at":
        return steps([{ type: "move", args: at() }]);
      case "type_text_at": {
        const text = String(args.text ?? "");
        // Google's reference clears the field unless told not to, and presses Enter only when told.
        const clear = args.clear_before_typing !== false;
        const enter = args.press_enter === true;
        return steps(
          [
            { type: "click", args: { ...at(), button: "left" } },
            ...(clear ? [{ type: "keypress", args: { keys: ["Control", "a"] } }, { type: "keypress", args: { keys: ["Delete"] } }] : []),
            ...(text ? [{ type: "type", args: { text } }] : []),
            ...(enter ? [{ type: "keypress", args: { keys: ["Enter"] } }] : []),
          ],
          true,
        );
      }
      case "scroll_document": {
        const direction = String(args.direction ?? "");
        if (direction === "down" || direction === "up") return steps([{ type: "keypress", args: { keys: [direction === "down" ? "PageDown" : "PageUp"] } }]);
        // Sideways, half the screen, at its middle (no key scrolls a page sideways by a screen).
        const half = Math.round(image.width / 2);
        const middle = { x: Math.floor(image.width / 2), y: Math.floor(image.height / 2) };
        if (direction === "left" || direction === "right") return steps([{ type: "scroll", args: { ...middle, scroll_x: direction === "left" ? -half : half, scroll_y: 0 } }]);
        return { kind: "refuse", reason: `direction must be up, down, left or right, not ${JSON.stringify(direction)}` };
      }
      case "scroll_at": {
        const direction = String(args.direction ?? "");
        const magnitude = args.magnitude === undefined ? DEFAULT_MAGNITUDE : Number(args.magnitude);
        if (!Number.isFinite(magnitude) || magnitude < 0 || magnitude > GRID) return { kind: "refuse", reason: `magnitude must be between 0 and ${GRID}` };
        const dy = gridToPixels(magnitude, image.height);
        const dx = gridToPixels(magnitude, image.width);
        const delta = { up: [0, -dy], down: [0, dy], left: [-dx, 0], right: [dx, 0] }[direction];
        if (!delta) return { kind: "refuse", reason: `direction must be up, down, left or right, not ${JSON.stringify(direction)}` };
        return steps([{ type: "scroll", args: { ...at(), scroll_x: delta[0], scroll_y: delta[1] } }]);
      }
      case "key_combination":
        return steps([{ type: "keypress", args: { keys: normalizeChord(String(args.keys ?? "").split("+").filter(Boolean)) } }]);
      case "drag_and_drop": {
        const start = at();
        const end = point(args, "destination_x", "destination_y", image);
        return steps([{ type: "drag", args: { ...start, end_x: end.x, end_y: end.y } }]);
      }
      case "navigate":
        return steps([{ type: "navigate", args: { url: String(args.url ?? "") } }]);
      case "go_back":
        return steps([{ type: "keypress", args: { keys: ["Alt", "ArrowLeft"] } }]);
      case "go_forward":
        return steps([{ type: "keypress", args: { keys: ["Alt", "ArrowRight"] } }]);
      case "search":
        return steps([{ type: "navigate", args: { url: SEARCH_HOME } }]);
      case "wait_5_seconds":
        return steps([{ type: "wait", args: { ms: WAIT_MS } }]);
      default:
        return { kind: "refuse", reason: `the function ${JSON.stringify(name)} is not supported here` };
    }
  } catch (error) {
    return { kind: "refuse", reason: (error as Error).message };
  }
}

/** A grid point from two arguments, in the image's pixels; off the grid is refused. */
function point(args: Record<string, unknown>, xKey: string, yKey: string, image: Size): { x: number; y: number } {
  const x = args[xKey];
  const y = args[yKey];
  if (typeof x !== "number" || typeof y !== "number" || !Number.isFinite(x) || !Number.isFinite(y)) throw new Error(`${xKey} and ${yKey} must be numbers`);
  if (x < 0 || y < 0 || x >= GRID || y >= GRID) throw new Error(`(${x}, ${y}) is off the 0–999 grid`);
  return fromGrid({ x, y }, image);
}
