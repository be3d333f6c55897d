// Reads a GLM-4.5V answer — an explanation with one `action(param='...')`, the action usually
// between <|begin_of_box|> and <|end_of_box|>, then `Memory: [...]` — into our action, its
// points mapped from thousandths (0–999) onto the image's pixels. Only the listed actions with
// literal arguments are read (the whitelist reader of opencua/pyautogui.ts); nothing is run.
import type { Point, Size } from "../../perception/coordinates.ts";
import type { Grid } from "../../perception/grids.ts";
import { actionSchema, WHEEL_NOTCH_PX, type Action } from "../../protocol/index.ts";
import { readArguments, type Literal } from "../opencua/pyautogui.ts";
import type { Parsed } from "../openai-compatible/ask.ts";
import { GLM_ACTIONS } from "./prompt.ts";

export interface GlmAnswer {
  explanation: string;
  /** The action as the model wrote it, for the history it gets back. */
  call: string;
  memory: string;
  /** null when the model gave up (FAIL). */
  action: Action | null;
}

const CALL = new RegExp(`\\b(${GLM_ACTIONS.join("|")})\\s*\\((.*)\\)`);

export function parseGlm(text: string, image: Size, grid: Grid): Parsed<GlmAnswer> {
  const answer = text.replace(/<think>[\s\S]*?<\/think>/g, "");
  const boxed = /<\|begin_of_box\|>([\s\S]*?)<\|end_of_box\|>/.exec(answer)?.[1]?.trim();
  const [before, memoryPart = "[]"] = answer.split(/\bMemory:/);
  const source = boxed ?? before ?? "";
  const match = CALL.exec(source.split("\n").find((line) => CALL.test(line)) ?? "");
  if (!match) return { ok: false, error: `there is no action; use one of ${GLM_ACTIONS.join(", ")} as action(param='...')` };
  const name = match[1] as (typeof GLM_ACTIONS)[number];
  const explanation = (before ?? "").replace(/<\|(begin|end)_of_box\|>/g, "").replace(match[0], "").trim();
  let kwargs: Record<string, Literal>;
  try {
    kwargs = readArguments(match[2]!).kwargs;
  } catch (error) {
    return { ok: false, error: `${name}: ${(error as Error).message}` };
  }
  try {
    const raw = toAction(name, kwargs, image, grid, explanation);
    const call = match[0];
    if (raw === null) return { ok: true, value: { explanation, call, memory: memoryPart.trim(), action: null } };
    const intent = String(kwargs.element_info ?? "") || (explanation.split("\n")[0] ?? "");
    const action = actionSchema.safeParse({ ...raw, intent, requires_verification: false });
    if (!action.success) return { ok: false, error: `${name}: ${action.error.issues[0]?.message ?? "invalid"}` };
    return { ok: true, value: { explanation, call, memory: memoryPart.trim() || "[]", action: action.data } };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

function toAction(name: (typeof GLM_ACTIONS)[number], kwargs: Record<string, Literal>, image: Size, grid: Grid, explanation: string): { type: string; args: object } | null {
  const box = (key: string): Point => {
    const value = kwargs[key];
    const numbers = (typeof value === "string" ? value.match(/-?\d+(\.\d+)?/g) ?? [] : Array.isArray(value) ? value : []).map(Number);
    if (numbers.length !== 2 && numbers.length !== 4) throw new Error(`${name} needs ${key}='[x,y]'`);
    const [x1, y1, x2 = x1!, y2 = y1!] = numbers as [number, number, number?, number?];
    return grid.toPixels({ x: (x1 + x2) / 2, y: (y1 + y2) / 2 }, image);
  };
  const text = (key: string) => String(kwargs[key] ?? "");
  switch (name) {
    case "left_click":
      return { type: "click", args: { ...box("start_box"), button: "left" } };
    case "right_click":
      return { type: "right_click", args: box("start_box") };
    case "middle_click":
      return { type: "click", args: { ...box("start_box"), button: "middle" } };
    case "hover":
      return { type: "move", args: box("start_box") };
    case "left_double_click":
      return { type: "double_click", args: box("start_box") };
    case "left_drag": {
      const start = box("start_box");
      const end = box("end_box");
      return { type: "drag", args: { ...start, end_x: end.x, end_y: end.y } };
    }
    case "key":
      return { type: "keypress", args: { keys: text("keys").split("+").map((k) => k.trim()).filter(Boolean) } };
    case "type":
      return { type: "type", args: { text: text("content") } };
    case "scroll": {
      const direction = text("direction");
      if (direction !== "up" && direction !== "down") throw new Error(`scroll direction must be 'up' or 'down', not '${direction}'`);
      const notches = Math.round(Number(kwargs.step ?? 5)) * WHEEL_NOTCH_PX;
      return { type: "scroll", args: { ...box("start_box"), scroll_x: 0, scroll_y: direction === "down" ? notches : -notches } };
    }
    case "WAIT":
      return { type: "wait", args: { ms: 5000 } };
    case "DONE":
      return { type: "done", args: { answer: explanation || "Done." } };
    case "ASK_USER":
      return { type: "needs_user", args: { answer: text("content") || explanation || "Please take over for a moment." } };
    case "FAIL":
      return null;
  }
}
