// Reads a Qwen3-VL answer — `Thought: …`, `Action: …`, then <tool_call> blocks of `computer_use`
// (or of our `page_tool`, a call of one of the page's own tools) — into our actions, its points
// mapped from the model's grid onto the image's pixels. A whitelist:
// each call's JSON is validated by zod and only the listed actions become actions; nothing the
// model writes is ever run.
import { z } from "zod";
import type { Point, Size } from "../../perception/coordinates.ts";
import type { Grid } from "../../perception/grids.ts";
import { actionSchema, MAX_WAIT_MS, WHEEL_NOTCH_PX, type PageToolAction, type PlannerAction } from "../../protocol/index.ts";
import { PAGE_TOOL_NAME, pageToolAction } from "../page-tool-call.ts";
import type { Parsed } from "../openai-compatible/ask.ts";
import { QWEN3VL_ACTIONS } from "./prompt.ts";

const pair = z.tuple([z.coerce.number(), z.coerce.number()]);

const callSchema = z.object({
  name: z.literal("computer_use", { error: 'the function must be "computer_use"' }),
  arguments: z.object({
    action: z.enum(QWEN3VL_ACTIONS, { error: `action must be one of ${QWEN3VL_ACTIONS.join(", ")}` }),
    coordinate: pair.optional(),
    keys: z.union([z.array(z.string()), z.string().transform((k) => k.split("+"))]).optional(),
    text: z.string().optional(),
    pixels: z.coerce.number().optional(),
    time: z.coerce.number().optional(),
    status: z.enum(["success", "failure"]).optional(),
  }),
});
type Call = z.infer<typeof callSchema>["arguments"];

export interface Qwen3VLAnswer {
  thought: string;
  progress: string;
  actions: PlannerAction[];
  /** `terminate` with status failure: the model gave up, for this reason. */
  failure: string | null;
  /** Where the pointer is after the actions, in the image's pixels (a drag starts there). */
  pointer: Point | null;
}

/** The answer's calls as actions; `pointer` is where the last answer left the mouse. */
export function parseQwen3VL(text: string, image: Size, grid: Grid, pointer: Point | null): Parsed<Qwen3VLAnswer> {
  const thought = /Thought:\s*([\s\S]*?)(?=\n\s*Action:|<tool_call>|$)/i.exec(text)?.[1]?.trim() ?? "";
  const intent = /Action:\s*(.*)/i.exec(text)?.[1]?.trim().replace(/^"|"$/g, "") ?? "";
  const bodies = [...text.matchAll(/<tool_call>\s*([\s\S]*?)\s*(?:<\/tool_call>|$)/g)].map((m) => m[1] ?? "");
  if (bodies.length === 0) return { ok: false, error: "there is no <tool_call> block" };
  const calls: (Call | PageToolAction)[] = [];
  const common = { intent: intent || (thought.split("\n")[0] ?? ""), requires_verification: false };
  for (const body of bodies) {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return { ok: false, error: `the tool call is not valid JSON: ${body.slice(0, 80)}` };
    }
    if (isPageCall(json)) {
      const action = pageToolAction(json.arguments ?? {}, common.intent);
      if ("refused" in action) return { ok: false, error: action.refused };
      calls.push(action);
      continue;
    }
    const call = callSchema.safeParse(json);
    if (!call.success) return { ok: false, error: call.error.issues.map((i) => `${i.path.join(".") || "the call"}: ${i.message}`).join("; ") };
    calls.push(call.data.arguments);
  }
  const state = { pointer, failure: null as string | null };
  const actions: PlannerAction[] = [];
  try {
    for (const call of calls) {
      if ("type" in call) {
        actions.push(call);
        continue;
      }
      const raw = toAction(call, image, grid, state, thought);
      if (raw === null) continue;
      const action = actionSchema.safeParse({ ...raw, ...common });
      if (!action.success) throw new Error(`${call.action}: ${action.error.issues[0]?.message ?? "invalid"}`);
      actions.push(action.data);
      if (action.data.type === "done" || action.data.type === "needs_user") break;
    }
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  if (actions.length === 0 && state.failure === null) return { ok: false, error: "the tool calls hold no action to carry out" };
  return { ok: true, value: { thought, progress: common.intent, actions, failure: state.failure, pointer: state.pointer } };
}

/** A call of our page_tool: `{"name": "page_tool", "arguments": {"name", "arguments"}}`. */
function isPageCall(json: unknown): json is { name: string; arguments?: Record<string, unknown> } {
  if (json === null || typeof json !== "object" || (json as { name?: unknown }).name !== PAGE_TOOL_NAME) return false;
  const args = (json as { arguments?: unknown }).arguments;
  return args === undefined || (args !== null && typeof args === "object" && !Array.isArray(args));
}

type Raw = { type: string; args: object };

function toAction(call: Call, image: Size, grid: Grid, state: { pointer: Point | null; failure: string | null }, thought: string): Raw | null {
  const at = (): Point => {
    if (!call.coordinate) throw new Error(`${call.action} needs a coordinate [x, y]`);
    state.pointer = grid.toPixels({ x: call.coordinate[0], y: call.coordinate[1] }, image);
    return state.pointer;
  };
  // A scroll without a point turns the wheel where the pointer is, or mid-screen.
  const here = (): Point => (call.coordinate ? at() : (state.pointer ?? { x: Math.floor(image.width / 2), y: Math.floor(image.height / 2) }));
  switch (call.action) {
    case "left_click":
      return { type: "click", args: { ...at(), button: "left" } };
    case "right_click":
      return { type: "right_click", args: at() };
    case "middle_click":
      return { type: "click", args: { ...at(), button: "middle" } };
    case "double_click":
      return { type: "double_click", args: at() };
    case "triple_click":
      return { type: "triple_click", args: at() };
    case "mouse_move":
      return { type: "move", args: at() };
    case "left_click_drag": {
      const start = state.pointer;
      if (!start) throw new Error("left_click_drag drags from where the cursor is: move it there first with mouse_move");
      const end = at();
      return { type: "drag", args: { x: start.x, y: start.y, end_x: end.x, end_y: end.y } };
    }
    case "scroll":
    case "hscroll": {
      if (call.pixels === undefined) throw new Error(`${call.action} needs pixels`);
      const notches = Math.round(call.pixels) * WHEEL_NOTCH_PX;
      const vertical = call.action === "scroll";
      return { type: "scroll", args: { ...here(), scroll_x: vertical ? 0 : notches, scroll_y: vertical ? -notches : 0 } };
    }
    case "key": {
      const keys = (call.keys ?? []).map((k) => k.trim()).filter(Boolean);
      if (keys.length === 0) throw new Error("key needs keys, e.g. [\"ctrl\", \"a\"]");
      return { type: "keypress", args: { keys } };
    }
    case "type":
      return { type: "type", args: { text: call.text ?? "" } };
    case "wait":
      return { type: "wait", args: { ms: Math.min(MAX_WAIT_MS, Math.round((call.time ?? 2) * 1000)) } };
    case "answer":
      return { type: "done", args: { answer: call.text || thought || "Done." } };
    case "ask_user":
      return { type: "needs_user", args: { answer: call.text || thought || "Please take over for a moment." } };
    case "terminate":
      if (call.status === "failure") {
        state.failure = `I could not finish the task. ${thought}`.trim();
        return null;
      }
      return { type: "done", args: { answer: thought || "Done." } };
  }
}
