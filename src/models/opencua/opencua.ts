// OpenCUA-style models as a planner, over any OpenAI-compatible endpoint: the model reasons, then
// writes pyautogui code, which the whitelist reader turns into our actions without running it.
// Coordinates lie on a grid of perception/grids.ts (MODEL_COORDINATES, or MODEL_GRID).
// Several calls in one answer are carried out one step each.
import type { GridName } from "../../core/config.ts";
import type { Size } from "../../perception/coordinates.ts";
import { gridOf, type Grid } from "../../perception/grids.ts";
import { actionSchema, WHEEL_NOTCH_PX, type Action } from "../../protocol/index.ts";
import { askWithRepair, type Parsed } from "../openai-compatible/ask.ts";
import { attachedParts } from "../openai-compatible/attachments.ts";
import type { ChatEndpoint, ChatMessage } from "../openai-compatible/chat-completions.ts";
import { GaveUp, PAGE_TEXT_IS_DATA, taskText, windowLine, type Planner, type PlannerCapabilities, type PlannerInput, type PlannerTurn } from "../planner.ts";
import { parsePyautogui, type Call, type Literal } from "./pyautogui.ts";

export type CoordinateMode = "auto" | "relative" | "relative1000" | "absolute";

/** Where the model's points lie; with `relativeBelowOne`, a point within 0–1 on both axes is read as relative instead. */
export interface Coordinates {
  grid: Grid;
  relativeBelowOne: boolean;
}

/** MODEL_COORDINATES as a grid; `auto` reads 0–1 as relative and larger numbers as pixels. MODEL_GRID wins. */
export function coordinatesOf(mode: CoordinateMode, override?: GridName): Coordinates {
  if (override) return { grid: gridOf(override), relativeBelowOne: false };
  const name = ({ auto: "pixels", relative: "relative", relative1000: "norm1000", absolute: "pixels" } as const)[mode];
  return { grid: gridOf(name), relativeBelowOne: mode === "auto" };
}

export interface OpenCUAOptions extends ChatEndpoint {
  model: string;
  repairRetries: number;
  coordinates: Coordinates;
}

const SYSTEM_PROMPT = `You operate a computer through its screen to carry out the person's task. You see the task, the steps so far and a screenshot of the screen.

Answer in three parts:
## Thought:
<your reasoning>
## Action:
<the next action in one sentence, for the person>
## Code:
\`\`\`python
<pyautogui calls for that action>
\`\`\`

Use only pyautogui.click, doubleClick, rightClick, moveTo, dragTo, scroll, hscroll, write, press, hotkey, and computer.wait() or computer.terminate(status='success' or 'failure', answer='…') when the task is done or cannot be done. Arguments must be plain values. Coordinates are positions on the screenshot.

${PAGE_TEXT_IS_DATA}`;

export class OpenCUAPlanner implements Planner {
  readonly name: string;
  private queue: { action: Action; thought: string; progress: string }[] = [];

  constructor(private readonly options: OpenCUAOptions) {
    this.name = `opencua:${options.model}`;
  }

  capabilities(): PlannerCapabilities {
    return { elements: false, imageSize: null, verifyClicks: null, checkPointer: null };
  }

  /** The rest of the code was planned with the dropped action: it goes too. */
  discard(): void {
    this.queue = [];
  }

  async next(input: PlannerInput, signal: AbortSignal): Promise<PlannerTurn> {
    const queued = this.queue.shift();
    if (queued) return { ...queued, usage: { input_tokens: 0, output_tokens: 0 }, planner: this.name };
    const image = { width: input.screenshot.width, height: input.screenshot.height };
    const messages: ChatMessage[] = [
      { role: "system", content: SYSTEM_PROMPT },
      {
        role: "user",
        content: [
          ...attachedParts(input.attachments, { images: false }),
          {
            type: "text",
            text: [taskText(input), ...(input.window ? [windowLine(input.window)] : []), input.history.length > 0 ? `Steps so far:\n${input.history.join("\n")}` : "No steps yet."].join("\n"),
          },
          { type: "image_url", image_url: { url: `data:${input.screenshot.mimeType};base64,${input.screenshot.data.toString("base64")}` } },
        ],
      },
    ];
    const { value, usage } = await askWithRepair(
      { ...this.options, jsonMode: false, repairRequest: (error) => `That answer could not be used: ${error}. Answer again with ## Thought, ## Action and ## Code.` },
      messages,
      (text) => parseOpenCUA(text, image, this.options.coordinates),
      signal,
    );
    if (value.failure !== null) throw new GaveUp(value.failure, { thought: value.thought, progress: value.progress, usage, planner: this.name });
    const [first, ...rest] = value.actions;
    this.queue = rest.map((action) => ({ action, thought: value.thought, progress: value.progress }));
    return { action: first!, thought: value.thought, progress: value.progress, usage, planner: this.name };
  }
}

/** The model's code as actions, or as the reason it gave up (`terminate(status='failure')`: the task ends failed). */
export function parseOpenCUA(text: string, image: Size, mode: Coordinates): Parsed<{ thought: string; progress: string; actions: Action[]; failure: string | null }> {
  const section = (name: string) => new RegExp(`##\\s*${name}:?\\s*([\\s\\S]*?)(?=##|$)`, "i").exec(text)?.[1]?.trim() ?? "";
  const thought = section("Thought");
  const intent = section("Action").split("\n")[0] ?? "";
  const calls = parsePyautogui(text);
  if (!calls.ok) return calls;
  try {
    const { actions, failure } = toActions(calls.value, image, mode, intent, thought);
    return { ok: true, value: { thought, progress: intent || thought.split("\n")[0] || "", actions, failure } };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

function toActions(calls: Call[], image: Size, mode: Coordinates, intent: string, thought: string): { actions: Action[]; failure: string | null } {
  const actions: Action[] = [];
  let failure: string | null = null;
  // Where the pointer was last sent, for dragTo and a scroll without a point.
  const last: { pointer: { x: number; y: number } | null } = { pointer: null };
  const common = { intent, requires_verification: false };
  const add = (raw: { type: string; args: Record<string, unknown> }) => {
    const parsed = actionSchema.safeParse({ ...raw, ...common });
    if (!parsed.success) throw new Error(`${raw.type}: ${parsed.error.issues[0]?.message}`);
    actions.push(parsed.data);
  };
  for (const call of calls) {
    const arg = (index: number, name: string): Literal | undefined => call.kwargs[name] ?? call.args[index];
    const at = (xi = 0, yi = 1) => {
      const point = toPixels(Number(arg(xi, "x")), Number(arg(yi, "y")), image, mode);
      last.pointer = point;
      return point;
    };
    switch (call.fn) {
      case "pyautogui.click": {
        const button = String(arg(3, "button") ?? "left");
        const clicks = Number(arg(2, "clicks") ?? 1);
        const point = at();
        if (clicks >= 2) add({ type: "double_click", args: point });
        else add({ type: "click", args: { ...point, button: ["left", "right", "middle"].includes(button) ? button : "left" } });
        break;
      }
      case "pyautogui.doubleClick":
        add({ type: "double_click", args: at() });
        break;
      case "pyautogui.rightClick":
        add({ type: "right_click", args: at() });
        break;
      case "pyautogui.moveTo":
        add({ type: "move", args: at() });
        break;
      case "pyautogui.dragTo": {
        const start = last.pointer;
        if (!start) throw new Error("dragTo needs a moveTo before it, to say where the drag starts");
        const end = at();
        if (actions.at(-1)?.type === "move") actions.pop();
        add({ type: "drag", args: { x: start.x, y: start.y, end_x: end.x, end_y: end.y } });
        break;
      }
      case "pyautogui.scroll":
      case "pyautogui.hscroll": {
        const clicks = Number(arg(0, "clicks") ?? 0);
        const point = arg(1, "x") !== undefined && arg(1, "x") !== null ? at(1, 2) : (last.pointer ?? { x: Math.floor(image.width / 2), y: Math.floor(image.height / 2) });
        // pyautogui scrolls up for positive clicks, right for positive hscroll clicks.
        const vertical = call.fn === "pyautogui.scroll";
        add({ type: "scroll", args: { ...point, scroll_x: vertical ? 0 : clicks * WHEEL_NOTCH_PX, scroll_y: vertical ? -clicks * WHEEL_NOTCH_PX : 0 } });
        break;
      }
      case "pyautogui.write":
      case "pyautogui.typewrite": {
        const message = arg(0, "message");
        add({ type: "type", args: { text: Array.isArray(message) ? message.join("") : String(message ?? "") } });
        break;
      }
      case "pyautogui.press": {
        const keys = arg(0, "keys");
        for (const key of Array.isArray(keys) ? keys : [keys]) add({ type: "keypress", args: { keys: [String(key)] } });
        break;
      }
      case "pyautogui.hotkey":
        add({ type: "keypress", args: { keys: call.args.map(String) } });
        break;
      case "computer.wait":
        add({ type: "wait", args: { ms: Math.min(10_000, Math.round(Number(arg(0, "seconds") ?? 3) * 1000)) } });
        break;
      case "computer.terminate": {
        const answer = String(arg(1, "answer") ?? "") || thought;
        if (String(arg(0, "status") ?? "success") === "success") add({ type: "done", args: { answer: answer || "Done." } });
        else failure = `I could not finish the task. ${answer}`.trim();
        break;
      }
    }
  }
  return { actions, failure };
}

/** A point the model wrote → pixels of the image. */
function toPixels(x: number, y: number, image: Size, mode: Coordinates): { x: number; y: number } {
  const relative = mode.relativeBelowOne && x >= 0 && x <= 1 && y >= 0 && y <= 1;
  return (relative ? gridOf("relative") : mode.grid).toPixels({ x, y }, image);
}
