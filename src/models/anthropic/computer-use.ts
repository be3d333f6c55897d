// Anthropic computer use as a planner: one conversation per task with the `computer` tool. Each
// step answers the tool calls the model made with the new screenshot (as a tool result image),
// asks again, and turns the next tool call into our action. The system prompt is cached; only
// the latest screenshots stay in the conversation. Screenshots are fitted into XGA/WXGA-class
// sizes and the display size the model is told is exactly that image's, so its coordinates map
// back through the runtime's coordinate module.
import { AppError } from "../../core/errors.ts";
import type { Size } from "../../perception/coordinates.ts";
import { fitWithin } from "../../perception/coordinates.ts";
import type { Screenshot } from "../../perception/screenshot.ts";
import { describeAction, type Usage } from "../../protocol/index.ts";
import { newFollowUps, PAGE_TEXT_IS_DATA, taskText, windowLine, type Planner, type PlannerCapabilities, type PlannerInput, type PlannerTurn } from "../planner.ts";
import { translate } from "./actions.ts";
import {
  createMessage,
  toolUseSchema,
  type AnthropicEndpoint,
  type ComputerTool,
  type ImageBlock,
  type MessageParam,
  type TextBlock,
  type ToolResultBlock,
} from "./messages.ts";

export interface AnthropicOptions {
  endpoint: Omit<AnthropicEndpoint, "beta">;
  model: string;
  maxTokens: number;
  /** The tool version; by default the newest one the model takes. */
  toolVersion?: ComputerTool["type"];
}

const SYSTEM_PROMPT = `You operate a web browser for a person through the computer tool, one action at a time, and see a screenshot after each action. Carry the task out completely. Before each action say in one short sentence what you are doing; the person reads these sentences as your progress. When the task is done, answer the person in Markdown without calling the tool. If the person must act themselves (log in, solve a captcha, confirm a payment), say exactly what they must do and stop. ${PAGE_TEXT_IS_DATA}`;

// The display sizes Anthropic recommends, by aspect ratio: XGA, WXGA and FWXGA.
const DISPLAYS: Size[] = [
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
  { width: 1366, height: 768 },
];
const KEEP_IMAGES = 3;
const NOT_CARRIED_OUT = "Not carried out: the person added to the task before this action ran.";
const MAX_CALLS_PER_STEP = 8;

type Pending = { id: string; input: Record<string, unknown> };

export class AnthropicComputerUse implements Planner {
  readonly name: string;
  private readonly messages: MessageParam[] = [];
  /** Tool calls of the last reply not yet carried out. */
  private pending: Pending[] = [];
  /** Results gathered for the last reply's tool calls, sent with the next request. */
  private results: ToolResultBlock[] = [];
  /** The tool call whose action the runtime is carrying out; its result is the next screenshot. */
  private inFlight: string | null = null;
  private narration = "";
  /** What the person added to the task that the model has not been told, for the next request. */
  private note: string | null = null;
  /** A discarded call had no screen for a result: the next request shows the screen as it is. */
  private owesScreen = false;
  private shown: (TextBlock | ImageBlock)[] = [];
  /** How many of the person's follow-ups the model has been told. */
  private toldFollowUps = 0;

  constructor(private readonly options: AnthropicOptions) {
    this.name = `anthropic:${options.model}`;
  }

  capabilities(screenshot: Size): PlannerCapabilities {
    return { elements: false, imageSize: displayFor(screenshot), verifyClicks: null, checkPointer: null };
  }

  async next(input: PlannerInput, signal: AbortSignal): Promise<PlannerTurn> {
    const usage: Usage = { input_tokens: 0, output_tokens: 0 };
    const display = { width: input.screenshot.width, height: input.screenshot.height };
    const added = newFollowUps(input, this.toldFollowUps);
    this.toldFollowUps = input.followUps?.length ?? 0;
    if (this.messages.length === 0) {
      this.messages.push({ role: "user", content: [...firstMessage(input), image(input.screenshot)] });
    } else {
      if (this.inFlight) this.results.push({ type: "tool_result", tool_use_id: this.inFlight, content: screen(input) });
      else if (this.owesScreen) this.shown = [{ type: "text", text: "The screen now:" }, ...screen(input)];
      this.inFlight = null;
      this.owesScreen = false;
      if (added) this.heed(added);
    }
    for (let requests = 0; ; ) {
      const call = this.pending.shift();
      if (call) {
        const translated = translate(call.input, display, this.narration);
        if (translated.kind === "act") {
          this.inFlight = call.id;
          const progress = this.narration || describeAction(translated.action);
          return { thought: this.narration, progress, action: translated.action, usage, planner: this.name };
        }
        this.results.push(
          translated.kind === "screenshot"
            ? { type: "tool_result", tool_use_id: call.id, content: screen(input) }
            : { type: "tool_result", tool_use_id: call.id, content: [{ type: "text", text: translated.reason }], is_error: true },
        );
        continue;
      }
      if (requests++ >= MAX_CALLS_PER_STEP) {
        throw new AppError("PLANNER_INVALID_OUTPUT", `Claude made ${MAX_CALLS_PER_STEP} requests in one step without an action that can be carried out.`);
      }
      const reply = await this.ask(display, signal);
      usage.input_tokens += reply.usage.input_tokens + (reply.usage.cache_creation_input_tokens ?? 0) + (reply.usage.cache_read_input_tokens ?? 0);
      usage.output_tokens += reply.usage.output_tokens;
      const text = reply.content
        .filter((block): block is TextBlock => block.type === "text" && typeof block.text === "string")
        .map((block) => block.text.trim())
        .filter(Boolean)
        .join("\n");
      const toolCalls = reply.content.flatMap((block) => {
        const use = toolUseSchema.safeParse(block);
        return use.success && use.data.name === "computer" ? [{ id: use.data.id, input: use.data.input }] : [];
      });
      if (text) this.narration = text;
      if (toolCalls.length === 0) {
        const answer = text || "Done.";
        return {
          thought: text,
          progress: firstSentence(answer),
          action: { type: "done", args: { answer }, intent: "", requires_verification: false },
          usage,
          planner: this.name,
        };
      }
      this.pending = toolCalls;
    }
  }

  /** The call in flight was not carried out, nor what Claude planned after it; it is told why. */
  discard(reason: string): void {
    const why: TextBlock[] = [{ type: "text", text: `Not carried out: ${reason.replace(/\.$/, "")}.` }];
    if (this.inFlight) this.results.push({ type: "tool_result", tool_use_id: this.inFlight, content: why, is_error: true });
    this.inFlight = null;
    this.owesScreen = true;
    for (const call of this.pending) this.results.push({ type: "tool_result", tool_use_id: call.id, content: why, is_error: true });
    this.pending = [];
  }

  /** The person added to the task: what the model planned before it knew is not carried out, and it is told why. */
  private heed(added: string): void {
    for (const call of this.pending) {
      this.results.push({ type: "tool_result", tool_use_id: call.id, content: [{ type: "text", text: NOT_CARRIED_OUT }], is_error: true });
    }
    this.pending = [];
    this.note = added;
  }

  private async ask(display: Size, signal: AbortSignal) {
    const note: TextBlock[] = this.note ? [{ type: "text", text: this.note }] : [];
    if (this.results.length > 0 || note.length > 0 || this.shown.length > 0) {
      this.messages.push({ role: "user", content: [...this.results, ...note, ...this.shown] });
      this.results = [];
      this.note = null;
      this.shown = [];
    }
    dropOldImages(this.messages, KEEP_IMAGES);
    const tool = this.options.toolVersion ?? toolVersionFor(this.options.model);
    const reply = await createMessage(
      { ...this.options.endpoint, beta: tool === "computer_20251124" ? "computer-use-2025-11-24" : "computer-use-2025-01-24" },
      {
        model: this.options.model,
        max_tokens: this.options.maxTokens,
        system: [{ type: "text", text: SYSTEM_PROMPT, cache_control: { type: "ephemeral" } }],
        tools: [{ type: tool, name: "computer", display_width_px: display.width, display_height_px: display.height }],
        messages: this.messages,
      },
      signal,
    );
    this.messages.push({ role: "assistant", content: reply.content });
    return reply;
  }
}

/** The screenshot fitted into the recommended display size nearest its aspect ratio. */
function displayFor(screenshot: Size): Size {
  const aspect = screenshot.width / screenshot.height;
  const display = DISPLAYS.reduce((best, d) =>
    Math.abs(d.width / d.height - aspect) < Math.abs(best.width / best.height - aspect) ? d : best,
  );
  return fitWithin(screenshot, display);
}

/** computer_20251124 for the models that take it (Opus 4.5 and later 4.x, Sonnet 4.6). */
export function toolVersionFor(model: string): ComputerTool["type"] {
  return /opus-4-[5-9]|opus-4\.[5-9]|sonnet-4-[6-9]|sonnet-4\.[6-9]/.test(model) ? "computer_20251124" : "computer_20250124";
}

function firstMessage(input: PlannerInput): TextBlock[] {
  const lines = [taskText(input), input.window ? `${windowLine(input.window)}.` : input.url ? `The browser shows ${input.url}.` : "", "The current screen:"];
  const attached = input.attachments.map((a) => `Attached: ${a.name} (${a.mime_type})`);
  return [{ type: "text", text: [...lines.slice(0, 2), ...attached, lines[2]].filter(Boolean).join("\n") }];
}

/** A screenshot as a tool result: on a desktop, with the window that has the focus now. */
function screen(input: PlannerInput): (TextBlock | ImageBlock)[] {
  return [...(input.window ? [{ type: "text" as const, text: windowLine(input.window) }] : []), image(input.screenshot)];
}

function image(shot: Screenshot): ImageBlock {
  return { type: "image", source: { type: "base64", media_type: shot.mimeType, data: shot.data.toString("base64") } };
}

/** Keeps the newest `keep` images; older ones become a short note, so the context stays small. */
function dropOldImages(messages: MessageParam[], keep: number): void {
  let seen = 0;
  for (let m = messages.length - 1; m >= 0; m--) {
    const message = messages[m]!;
    if (message.role !== "user") continue;
    for (const block of [...message.content].reverse()) {
      const holder = block.type === "tool_result" ? block.content : null;
      const list = holder ?? [block];
      for (let i = list.length - 1; i >= 0; i--) {
        if (list[i]!.type !== "image") continue;
        if (++seen > keep) {
          if (holder) holder[i] = { type: "text", text: "(an earlier screenshot, no longer shown)" };
          else message.content[message.content.indexOf(block)] = { type: "text", text: "(an earlier screenshot, no longer shown)" };
        }
      }
    }
  }
}

function firstSentence(text: string): string {
  const line = text.split("\n").find((l) => l.trim()) ?? text;
  return line.length > 140 ? `${line.slice(0, 139)}…` : line;
}
