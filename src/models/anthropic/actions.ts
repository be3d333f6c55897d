// Translates the Anthropic `computer` tool's actions (computer_20250124 / computer_20251124) into
// ours. Coordinates are in the display the tool declared, which is the image the model saw.
// Some actions are answered without touching the computer (a screenshot); the rest are refused
// with a reason the model reads in the tool result.
import { isInside, type Size } from "../../perception/coordinates.ts";
import { actionSchema, MAX_WAIT_MS, WHEEL_NOTCH_PX, type Action } from "../../protocol/index.ts";

export type Translated =
  | { kind: "act"; action: Action }
  | { kind: "screenshot" }
  | { kind: "refuse"; reason: string };

export function translate(input: Record<string, unknown>, display: Size, intent: string): Translated {
  const action = typeof input.action === "string" ? input.action : "";
  const point = (key: string) => readPoint(input[key], display, key);
  const act = (raw: unknown): Translated => {
    const parsed = actionSchema.safeParse(raw);
    if (!parsed.success) return { kind: "refuse", reason: `invalid ${action}: ${parsed.error.issues[0]?.message}` };
    return { kind: "act", action: parsed.data };
  };
  const common = { intent, requires_verification: false };
  try {
    switch (action) {
      case "screenshot":
        return { kind: "screenshot" };
      case "left_click":
        return act({ type: "click", args: { ...point("coordinate"), button: "left" }, ...common });
      case "right_click":
        return act({ type: "right_click", args: point("coordinate"), ...common });
      case "middle_click":
        return act({ type: "click", args: { ...point("coordinate"), button: "middle" }, ...common });
      case "double_click":
        return act({ type: "double_click", args: point("coordinate"), ...common });
      case "mouse_move":
        return act({ type: "move", args: point("coordinate"), ...common });
      case "left_click_drag": {
        const start = point("start_coordinate");
        const end = point("coordinate");
        return act({ type: "drag", args: { ...start, end_x: end.x, end_y: end.y }, ...common });
      }
      case "type":
        return act({ type: "type", args: { text: String(input.text ?? "") }, ...common });
      case "key":
        return act({ type: "keypress", args: { keys: String(input.text ?? "").split("+").filter(Boolean) }, ...common });
      case "scroll": {
        const amount = Number(input.scroll_amount ?? 3) * WHEEL_NOTCH_PX;
        const direction = String(input.scroll_direction ?? "down");
        const delta = { up: [0, -amount], down: [0, amount], left: [-amount, 0], right: [amount, 0] }[direction];
        if (!delta) return { kind: "refuse", reason: `scroll_direction must be up, down, left or right, not ${direction}` };
        return act({ type: "scroll", args: { ...point("coordinate"), scroll_x: delta[0], scroll_y: delta[1] }, ...common });
      }
      case "wait":
        return act({ type: "wait", args: { ms: Math.min(MAX_WAIT_MS, Math.round(Number(input.duration ?? 1) * 1000)) }, ...common });
      default:
        return { kind: "refuse", reason: `the action ${JSON.stringify(action)} is not supported here` };
    }
  } catch (error) {
    return { kind: "refuse", reason: (error as Error).message };
  }
}

function readPoint(value: unknown, display: Size, key: string): { x: number; y: number } {
  if (!Array.isArray(value) || value.length !== 2 || !value.every((n) => typeof n === "number" && Number.isFinite(n))) {
    throw new Error(`${key} must be [x, y]`);
  }
  const point = { x: Math.round(value[0] as number), y: Math.round(value[1] as number) };
  if (!isInside(point, display)) {
    throw new Error(`${key} (${point.x}, ${point.y}) is outside the ${display.width}×${display.height} display`);
  }
  return point;
}
