// Turns a model's text into a validated PlannerAnswer (PROTOCOL.md "Answer"): repairs fenced or
// wrapped JSON and the variants real models emit, validates with zod, and rejects coordinates
// outside the screenshot; points on another grid than pixels are mapped onto the screenshot's
// pixels first. The result is data; nothing a model writes is ever executed.
import { z } from "zod";
import { plannerAnswerSchema, type PlannerAnswer } from "../../protocol/index.ts";
import { gridOf, type Grid } from "../../perception/grids.ts";
import type { Parsed } from "../openai-compatible/ask.ts";
import type { Size } from "../../perception/image-size.ts";

const TYPE_ALIASES: Record<string, string> = {
  doubleclick: "double_click",
  dblclick: "double_click",
  rightclick: "right_click",
  left_click: "click",
  tap: "click",
  mouse_move: "move",
  hover: "move",
  drag_and_drop: "drag",
  hotkey: "keypress",
  key: "keypress",
  press: "keypress",
  keys: "keypress",
  input: "type",
  type_text: "type",
  upload_file: "upload",
  file_upload: "upload",
  goto: "navigate",
  open_url: "navigate",
  sleep: "wait",
  finish: "done",
  finished: "done",
  ask_user: "needs_user",
  need_user: "needs_user",
};

// Points are rounded by their grid (parsePlannerAnswer), the other numbers here.
const POINT_ARGS = ["x", "y", "end_x", "end_y"];
const NUMERIC_ARGS = [...POINT_ARGS, "scroll_x", "scroll_y", "ms"];
const ARG_NAMES = [...NUMERIC_ARGS, "button", "text", "keys", "key", "url", "name", "answer", "coordinate", "end_coordinate", "arguments"];

export function parsePlannerAnswer(raw: string, screenshot: Size, grid: Grid = gridOf("pixels")): Parsed<PlannerAnswer> {
  const json = extractJson(raw);
  if (!json.ok) return json;
  const shaped = normalize(json.value);
  if (isRecord(shaped) && isRecord(shaped.action) && isRecord(shaped.action.args)) {
    try {
      shaped.action.args = onto(shaped.action.args, screenshot, grid);
    } catch (error) {
      return { ok: false, error: (error as Error).message };
    }
  }
  const parsed = plannerAnswerSchema.safeParse(shaped);
  if (!parsed.success) return { ok: false, error: describeIssues(parsed.error) };
  return { ok: true, value: parsed.data };
}

const pointerCheckSchema = z.object({
  on_target: z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]),
  dx: z.coerce.number().finite().transform(Math.round).default(0),
  dy: z.coerce.number().finite().transform(Math.round).default(0),
});

/** The answer to a pointer check: `{"on_target": bool, "dx": int, "dy": int}` (PROTOCOL.md). */
export function parsePointerCheck(raw: string): Parsed<z.infer<typeof pointerCheckSchema>> {
  const json = extractJson(raw);
  if (!json.ok) return json;
  const parsed = pointerCheckSchema.safeParse(json.value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: describeIssues(parsed.error) };
}

/** Finds the first JSON object in the text: inside a ``` fence, or wrapped in prose. */
export function extractJson(raw: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(raw)?.[1];
  const text = (fenced ?? raw).trim();
  const start = text.indexOf("{");
  if (start < 0) return { ok: false, error: "the answer contains no JSON object" };
  const end = matchingBrace(text, start);
  const candidate = end < 0 ? text.slice(start) : text.slice(start, end + 1);
  try {
    return { ok: true, value: JSON.parse(candidate) };
  } catch (error) {
    return { ok: false, error: `the answer is not valid JSON (${(error as Error).message})` };
  }
}

function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
  }
  return -1;
}

/** The action's points, as the model wrote them on its grid, in whole pixels of the screenshot. */
function onto(args: Record<string, unknown>, screenshot: Size, grid: Grid): Record<string, unknown> {
  const out = { ...args };
  for (const [x, y] of [["x", "y"], ["end_x", "end_y"]] as const) {
    if (typeof out[x] === "number" && typeof out[y] === "number") {
      const point = grid.toPixels({ x: out[x], y: out[y] }, screenshot);
      out[x] = point.x;
      out[y] = point.y;
    }
  }
  return out;
}

function normalize(value: unknown): unknown {
  if (!isRecord(value)) return value;
  const answer: Record<string, unknown> = { ...value };
  if (answer.action === undefined && typeof answer.type === "string") {
    answer.action = { ...value };
  }
  if (typeof answer.action === "string") answer.action = { type: answer.action, args: answer.args ?? {} };
  if (isRecord(answer.action)) answer.action = normalizeAction(answer.action);
  return answer;
}

function normalizeAction(input: Record<string, unknown>): Record<string, unknown> {
  const action: Record<string, unknown> = { ...input };
  if (typeof action.type === "string") {
    const key = action.type.trim().toLowerCase().replace(/[\s-]+/g, "_");
    action.type = TYPE_ALIASES[key] ?? TYPE_ALIASES[key.replace(/_/g, "")] ?? key;
  }
  const args: Record<string, unknown> = isRecord(action.args) ? { ...action.args } : {};
  for (const name of ARG_NAMES) {
    if (name in action && !(name in args)) args[name] = action[name];
    delete action[name];
  }
  spreadPair(args, "coordinate", "x", "y");
  spreadPair(args, "end_coordinate", "end_x", "end_y");
  for (const name of NUMERIC_ARGS) {
    const n = typeof args[name] === "string" ? Number(args[name]) : args[name];
    if (typeof n === "number" && Number.isFinite(n)) args[name] = POINT_ARGS.includes(name) ? n : Math.round(n);
  }
  if (args.keys === undefined && args.key !== undefined) args.keys = args.key;
  delete args.key;
  if (typeof args.keys === "string") args.keys = args.keys.split("+").map((k) => k.trim()).filter(Boolean);
  // A page tool's arguments written as JSON text, as function calls carry them.
  if (typeof args.arguments === "string") args.arguments = parsedOr(args.arguments);
  if (typeof action.requires_verification === "string") {
    action.requires_verification = action.requires_verification === "true";
  }
  action.args = args;
  return action;
}

/** The value of a JSON text; the text itself when it is not JSON, for the schema to refuse. */
function parsedOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function spreadPair(args: Record<string, unknown>, from: string, x: string, y: string): void {
  const pair = args[from];
  if (Array.isArray(pair) && pair.length === 2) {
    args[x] ??= pair[0];
    args[y] ??= pair[1];
  }
  delete args[from];
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const where = issue.path.join(".") || "the answer";
      return `${where}: ${issue.message}`;
    })
    .join("; ");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
