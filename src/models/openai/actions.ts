// Translates OpenAI computer actions (click, double_click, drag, keypress, move, screenshot,
// scroll, type, wait) into ours. Coordinates are in the display the model saw.
import { isInside, type Size } from "../../perception/coordinates.ts";
import { actionSchema, type Action } from "../../protocol/index.ts";
import type { ComputerAction } from "./responses.ts";

/** OpenAI's `wait` has no duration; the reference samples wait 2 s. */
const WAIT_MS = 2000;

export type Translated = { kind: "act"; action: Action } | { kind: "screenshot" } | { kind: "refuse"; reason: string };

export function translate(input: ComputerAction, display: Size, intent: string): Translated {
  const common = { intent, requires_verification: false };
  const num = (key: string) => Math.round(Number(input[key]));
  const at = (x: number, y: number) => {
    if (!Number.isFinite(x) || !Number.isFinite(y)) throw new Error(`${input.type} needs x and y`);
    if (!isInside({ x, y }, display)) throw new Error(`(${x}, ${y}) is outside the ${display.width}×${display.height} display`);
    return { x, y };
  };
  const act = (raw: unknown): Translated => {
    const parsed = actionSchema.safeParse(raw);
    return parsed.success ? { kind: "act", action: parsed.data } : { kind: "refuse", reason: `invalid ${input.type}: ${parsed.error.issues[0]?.message}` };
  };
  try {
    switch (input.type) {
      case "screenshot":
        return { kind: "screenshot" };
      case "click": {
        const button = String(input.button ?? "left");
        const point = at(num("x"), num("y"));
        if (button === "left" || button === "right") return act({ type: "click", args: { ...point, button }, ...common });
        if (button === "wheel") return act({ type: "click", args: { ...point, button: "middle" }, ...common });
        if (button === "back") return act({ type: "keypress", args: { keys: ["Alt", "ArrowLeft"] }, ...common });
        if (button === "forward") return act({ type: "keypress", args: { keys: ["Alt", "ArrowRight"] }, ...common });
        return { kind: "refuse", reason: `unknown button ${button}` };
      }
      case "double_click":
        return act({ type: "double_click", args: at(num("x"), num("y")), ...common });
      case "move":
        return act({ type: "move", args: at(num("x"), num("y")), ...common });
      case "drag": {
        const path = Array.isArray(input.path) ? (input.path as { x: number; y: number }[]) : [];
        const first = path[0];
        const last = path.at(-1);
        if (!first || !last || path.length < 2) return { kind: "refuse", reason: "drag needs a path of at least two points" };
        const start = at(Math.round(first.x), Math.round(first.y));
        const end = at(Math.round(last.x), Math.round(last.y));
        return act({ type: "drag", args: { ...start, end_x: end.x, end_y: end.y }, ...common });
      }
      case "scroll":
        return act({
          type: "scroll",
          args: { ...at(num("x"), num("y")), scroll_x: num("scroll_x") || 0, scroll_y: num("scroll_y") || 0 },
          ...common,
        });
      case "type":
        return act({ type: "type", args: { text: String(input.text ?? "") }, ...common });
      case "keypress":
        return act({ type: "keypress", args: { keys: Array.isArray(input.keys) ? input.keys.map(String) : [] }, ...common });
      case "wait":
        return act({ type: "wait", args: { ms: WAIT_MS }, ...common });
      default:
        return { kind: "refuse", reason: `the action ${JSON.stringify(input.type)} is not supported here` };
    }
  } catch (error) {
    return { kind: "refuse", reason: (error as Error).message };
  }
}
