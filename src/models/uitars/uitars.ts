// UI-TARS (1.5, 2) as a planner, over any OpenAI-compatible endpoint: the model answers in its
// own `Thought: … Action: click(start_box='(x,y)')` text, which @ui-tars/action-parser reads into
// boxes as the model wrote them; the version's grid (0–1000, or 1.5's smart-resized pixels) maps
// them onto the image's pixels.
import { actionParser } from "@ui-tars/action-parser";
import type { Size } from "../../perception/coordinates.ts";
import type { Grid } from "../../perception/grids.ts";
import { actionSchema, type Action } from "../../protocol/index.ts";
import { askWithRepair, type Parsed } from "../openai-compatible/ask.ts";
import { attachedParts } from "../openai-compatible/attachments.ts";
import type { ChatEndpoint, ChatMessage } from "../openai-compatible/chat-completions.ts";
import { PAGE_TEXT_IS_DATA, taskText, windowLine, type Planner, type PlannerCapabilities, type PlannerInput, type PlannerTurn } from "../planner.ts";

export interface UITarsOptions extends ChatEndpoint {
  model: string;
  repairRetries: number;
  version: "1.0" | "1.5" | "doubao-1.5-15B" | "doubao-1.5-20B";
  /** Where its points lie (models/dialects.ts `uitarsGrid`). */
  grid: Grid;
}

const SCROLL_PX = 500;

const SYSTEM_PROMPT = `You operate a computer through its screen to carry out the person's task. You see the task, the steps so far and a screenshot, and you answer with your reasoning and exactly one next action.

## Answer format
Thought: <your reasoning, in English>
Action: <one action from the list below>

## Actions
click(start_box='(x,y)')
left_double(start_box='(x,y)')
right_single(start_box='(x,y)')
drag(start_box='(x1,y1)', end_box='(x2,y2)')
hotkey(key='ctrl c')
type(content='text') # end with \\n to submit
scroll(start_box='(x,y)', direction='down or up or right or left')
wait() # five seconds, then a new screenshot
finished(content='the answer for the person')
call_user() # the person must act: say what in Thought

${PAGE_TEXT_IS_DATA}`;

export class UITarsPlanner implements Planner {
  readonly name: string;

  constructor(private readonly options: UITarsOptions) {
    this.name = `uitars:${options.model}`;
  }

  capabilities(): PlannerCapabilities {
    return { elements: false, imageSize: null, verifyClicks: null, checkPointer: null };
  }

  async next(input: PlannerInput, signal: AbortSignal): Promise<PlannerTurn> {
    const image = { width: input.screenshot.width, height: input.screenshot.height };
    const lines = [
      taskText(input),
      ...(input.window ? [windowLine(input.window)] : []),
      input.history.length > 0 ? `Steps so far:\n${input.history.join("\n")}` : "No steps yet.",
    ];
    const messages: ChatMessage[] = [
      { role: "system", content: SYSTEM_PROMPT },
      {
        role: "user",
        content: [
          ...attachedParts(input.attachments, { images: false }),
          { type: "text", text: lines.join("\n") },
          { type: "image_url", image_url: { url: `data:${input.screenshot.mimeType};base64,${input.screenshot.data.toString("base64")}` } },
        ],
      },
    ];
    const { value, usage } = await askWithRepair(
      { ...this.options, jsonMode: false, repairRequest: (error) => `That answer could not be used: ${error}. Answer again as Thought: … then Action: … with one action from the list.` },
      messages,
      (text) => parseUITars(text, image, this.options.grid),
      signal,
    );
    return { thought: value.thought, progress: value.thought.split("\n")[0] || value.action.intent, action: value.action, usage, planner: this.name };
  }
}

/** Reads one UI-TARS answer into our action, its points in the pixels of `image`. */
export function parseUITars(text: string, image: Size, grid: Grid): Parsed<{ thought: string; action: Action }> {
  let parsed;
  try {
    // A factor of 1 without a screen leaves the numbers as the model wrote them; the grid maps them.
    [parsed] = actionParser({ prediction: text, factor: [1, 1] }).parsed;
  } catch (error) {
    return { ok: false, error: `the action could not be read (${(error as Error).message})` };
  }
  if (!parsed?.action_type) return { ok: false, error: "there is no Action line" };
  const thought = (parsed.thought ?? "").trim();
  const inputs = parsed.action_inputs as Record<string, unknown>;
  const at = (key: string) => {
    const box = JSON.parse(String(inputs[key] ?? "null")) as number[] | null;
    if (!box || box.length < 2) throw new Error(`${key} is missing`);
    const [x1, y1, x2 = x1!, y2 = y1!] = box as [number, number, number?, number?];
    return grid.toPixels({ x: (x1 + x2) / 2, y: (y1 + y2) / 2 }, image);
  };
  const common = { intent: thought.split("\n")[0] ?? "", requires_verification: false };
  try {
    const raw = toAction(parsed.action_type, inputs, at, thought);
    if (typeof raw === "string") return { ok: false, error: raw };
    const action = actionSchema.safeParse({ ...raw, ...common });
    return action.success ? { ok: true, value: { thought, action: action.data } } : { ok: false, error: action.error.issues[0]?.message ?? "invalid action" };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

function toAction(type: string, inputs: Record<string, unknown>, at: (key: string) => { x: number; y: number }, thought: string): { type: string; args: Record<string, unknown> } | string {
  switch (type) {
    case "click":
    case "left_single":
      return { type: "click", args: { ...at("start_box"), button: "left" } };
    case "left_double":
      return { type: "double_click", args: at("start_box") };
    case "right_single":
      return { type: "right_click", args: at("start_box") };
    case "hover":
    case "mouse_move":
      return { type: "move", args: at("start_box") };
    case "drag":
    case "select": {
      const end = at("end_box");
      return { type: "drag", args: { ...at("start_box"), end_x: end.x, end_y: end.y } };
    }
    case "hotkey":
    case "press":
      return { type: "keypress", args: { keys: String(inputs.key ?? inputs.hotkey ?? "").split(/[\s+]+/).filter(Boolean) } };
    case "type":
      return { type: "type", args: { text: String(inputs.content ?? "").replace(/\\n/g, "\n") } };
    case "scroll": {
      const direction = String(inputs.direction ?? "down");
      const delta = { up: [0, -SCROLL_PX], down: [0, SCROLL_PX], left: [-SCROLL_PX, 0], right: [SCROLL_PX, 0] }[direction];
      if (!delta) return `scroll direction must be up, down, left or right, not ${direction}`;
      return { type: "scroll", args: { ...at("start_box"), scroll_x: delta[0], scroll_y: delta[1] } };
    }
    case "wait":
      return { type: "wait", args: { ms: 5000 } };
    case "finished":
      return { type: "done", args: { answer: String(inputs.content ?? "") || thought || "Done." } };
    case "call_user":
      return { type: "needs_user", args: { answer: thought || "Please take over for a moment." } };
    default:
      return `the action ${type} is not one of the listed actions`;
  }
}
