// Translates Claude's computer actions into ours: the `computer` tool's `input.action` (computer_20250124,
// computer_20251124) and the toolset's members (computer_toolset_20260801), which share names and
// inputs. Coordinates are pixels of the image the model saw. Looking (screenshot, zoom, where the
// pointer is) is answered by the adapter without a step; pressing and releasing the left button are
// held by the adapter and carried out as one click or drag; what cannot be done is refused with a
// reason the model reads in the tool result.
import { isInside, type Point, type Size } from "../../perception/coordinates.ts";
import { actionSchema, MAX_WAIT_MS, WHEEL_NOTCH_PX, type Action } from "../../protocol/index.ts";

export type Region = { x0: number; y0: number; x1: number; y1: number };

export type Translated =
  | { kind: "act"; action: Action }
  | { kind: "screenshot" }
  | { kind: "zoom"; region: Region }
  | { kind: "cursor" }
  | { kind: "press"; at: Point }
  | { kind: "release"; at: Point }
  | { kind: "refuse"; reason: string };

/** `name`: the action (`left_click`); `cursor`: where the pointer is, for actions whose coordinate may be left out. */
export async function translate(name: string, input: Record<string, unknown>, display: Size, intent: string, cursor: () => Promise<Point>): Promise<Translated> {
  const common = { intent, requires_verification: false };
  const act = (raw: unknown): Translated => {
    const parsed = actionSchema.safeParse(raw);
    if (!parsed.success) return { kind: "refuse", reason: `invalid ${name}: ${parsed.error.issues[0]?.message}` };
    return { kind: "act", action: parsed.data };
  };
  const point = (key: string) => readPoint(input[key], display, key);
  // Clicks and scrolls may leave out the coordinate: they act where the pointer is.
  const here = async () => (input.coordinate === undefined ? cursor() : point("coordinate"));
  try {
    if (typeof input.text === "string" && input.text && HOLDS_KEYS_WHILE_POINTING.has(name)) {
      return { kind: "refuse", reason: `holding ${input.text} during ${name} is not supported here; press the keys with key or hold_key` };
    }
    switch (name) {
      case "screenshot":
        return { kind: "screenshot" };
      case "cursor_position":
        return { kind: "cursor" };
      case "zoom":
        return { kind: "zoom", region: readRegion(input.region, display) };
      case "left_click":
        return act({ type: "click", args: { ...(await here()), button: "left" }, ...common });
      case "right_click":
        return act({ type: "right_click", args: await here(), ...common });
      case "middle_click":
        return act({ type: "click", args: { ...(await here()), button: "middle" }, ...common });
      case "double_click":
        return act({ type: "double_click", args: await here(), ...common });
      case "triple_click":
        return act({ type: "triple_click", args: await here(), ...common });
      case "mouse_move":
        return act({ type: "move", args: point("coordinate"), ...common });
      case "left_mouse_down":
        return { kind: "press", at: await here() };
      case "left_mouse_up":
        return { kind: "release", at: await here() };
      case "left_click_drag": {
        const start = point("start_coordinate");
        const end = point("coordinate");
        return act({ type: "drag", args: { ...start, end_x: end.x, end_y: end.y }, ...common });
      }
      case "type":
        return act({ type: "type", args: { text: String(input.text ?? "") }, ...common });
      case "key":
        return act({ type: "keypress", args: { keys: chord(input.text) }, ...common });
      case "hold_key":
        return act({ type: "hold_key", args: { keys: chord(input.text), ms: seconds(input.duration) }, ...common });
      case "scroll": {
        const amount = Number(input.scroll_amount ?? 3) * WHEEL_NOTCH_PX;
        const direction = String(input.scroll_direction ?? "down");
        const delta = { up: [0, -amount], down: [0, amount], left: [-amount, 0], right: [amount, 0] }[direction];
        if (!delta) return { kind: "refuse", reason: `scroll_direction must be up, down, left or right, not ${direction}` };
        return act({ type: "scroll", args: { ...(await here()), scroll_x: delta[0], scroll_y: delta[1] }, ...common });
      }
      case "wait":
        return act({ type: "wait", args: { ms: seconds(input.duration ?? 1) }, ...common });
      default:
        return { kind: "refuse", reason: `the action ${JSON.stringify(name)} is not supported here` };
    }
  } catch (error) {
    return { kind: "refuse", reason: (error as Error).message };
  }
}

/** Actions whose `text` names keys to hold while the mouse acts (`shift` for a shift-click). */
const HOLDS_KEYS_WHILE_POINTING = new Set(["left_click", "right_click", "middle_click", "double_click", "triple_click", "left_click_drag", "scroll", "left_mouse_down", "left_mouse_up", "mouse_move"]);

/** `ctrl+s` → `["ctrl", "s"]` (xdotool's syntax, which the computers read). */
function chord(text: unknown): string[] {
  return String(text ?? "").split("+").filter(Boolean);
}

function seconds(value: unknown): number {
  return Math.min(MAX_WAIT_MS, Math.max(0, Math.round(Number(value) * 1000) || 0));
}

function readPoint(value: unknown, display: Size, key: string): Point {
  if (!Array.isArray(value) || value.length !== 2 || !value.every((n) => typeof n === "number" && Number.isFinite(n))) {
    throw new Error(`${key} must be [x, y]`);
  }
  const point = { x: Math.round(value[0] as number), y: Math.round(value[1] as number) };
  if (!isInside(point, display)) {
    throw new Error(`${key} (${point.x}, ${point.y}) is outside the ${display.width}×${display.height} display`);
  }
  return point;
}

/** `[x0, y0, x1, y1]`: two corners inside the screenshot, the second right of and below the first. */
function readRegion(value: unknown, display: Size): Region {
  if (!Array.isArray(value) || value.length !== 4 || !value.every((n) => typeof n === "number" && Number.isFinite(n))) {
    throw new Error("region must be [x0, y0, x1, y1]");
  }
  const [x0, y0, x1, y1] = (value as number[]).map(Math.round) as [number, number, number, number];
  if (x0 < 0 || y0 < 0 || x1 > display.width || y1 > display.height || x1 <= x0 || y1 <= y0) {
    throw new Error(`region [${x0}, ${y0}, ${x1}, ${y1}] is not a box inside the ${display.width}×${display.height} screenshot`);
  }
  return { x0, y0, x1, y1 };
}
