// Anthropic computer use as a planner: one conversation per task with the computer tool its model
// is trained on (claude-models.ts). Claude may make several calls in one reply; they are carried out
// in order, one step each, and answered together in the next request, and the first that fails ends
// the batch (the rest are answered as not carried out). Looking (screenshot, zoom, where the pointer
// is) is answered without a step. With the 2025 tool an action's result is the screen after it; a
// toolset member's is a line saying what was done, and the screen follows the batch. An answer
// without a call either ends the task or, when it asks the person to act (asks-person.ts), waits for
// them; their reply comes back to Claude. The system prompt is cached; only the latest screenshots
// stay in the conversation. Claude also looks at the pointer before a click the hit test could not
// confirm, in a request of its own. Where the page declares tools for agents, they are told and a
// `page_tool` tool of our own is offered beside the computer tool (page-tool-call.ts).
import { AppError } from "../../core/errors.ts";
import type { Point, Size } from "../../perception/coordinates.ts";
import type { Screenshot } from "../../perception/screenshot.ts";
import { describeAction, type PlannerAction, type Usage } from "../../protocol/index.ts";
import { describePlannerAction, PAGE_TOOL_FUNCTION, PAGE_TOOL_NAME, pageToolAction, pageToolResult, PageToolList } from "../page-tool-call.ts";
import { parsePointerCheck } from "../json-planner/parse.ts";
import { pointerCheckQuestion } from "../json-planner/prompt.ts";
import {
  newFollowUps,
  PAGE_TEXT_IS_DATA,
  taskText,
  windowLine,
  type Planner,
  type PlannerCapabilities,
  type PlannerInput,
  type PlannerTurn,
  type PointerCheck,
  type PointerCheckInput,
} from "../planner.ts";
import { translate } from "./actions.ts";
import { ASK_MARKER, askedOfPerson } from "../asks-person.ts";
import { claudeModel, imageSizeFor, type ClaudeModel } from "./claude-models.ts";
import {
  attachmentBlocks,
  createMessage,
  toolUseSchema,
  type AnthropicEndpoint,
  type ComputerTool,
  type ComputerToolset,
  type CustomTool,
  type DocumentBlock,
  type ImageBlock,
  type MessageParam,
  type TextBlock,
  type ToolResultBlock,
} from "./messages.ts";

const POINTER_CHECK_SYSTEM = "You check where a mouse pointer is on a screenshot before a click, and answer with one JSON object.";
const POINTER_CHECK_TOKENS = 256;

export interface AnthropicOptions {
  endpoint: Omit<AnthropicEndpoint, "beta">;
  model: string;
  maxTokens: number;
}

const SYSTEM_PROMPT = `You operate a computer for a person through the computer tool and see screenshots of it. Carry the task out completely; you may make several calls in one reply when you are sure of each. Before acting say in one short sentence what you are doing; the person reads these sentences as your progress. When the task is done, answer the person in Markdown without calling the tool. If the person must act themselves (sign in, solve a CAPTCHA, confirm a payment, make a choice that is theirs), begin your reply with ${ASK_MARKER} then say exactly what they must do, and stop: you will be told when they are done and go on from there. ${PAGE_TEXT_IS_DATA}`;

const KEEP_IMAGES = 3;
const NOT_CARRIED_OUT = "Not carried out: the person added to the task before this action ran.";
const NOT_RUN = "Not carried out: an earlier computer action in this turn failed.";
const MAX_CALLS_PER_STEP = 8;
const ANSWERED = /^The person was asked to act and answered(?:: ([\s\S]*))?$/;

/** `page`: a call of our page_tool, not of the computer tool. */
type Call = { id: string; name: string; input: Record<string, unknown>; toolset: boolean; page: boolean };

const PAGE_TOOL: CustomTool = { name: PAGE_TOOL_FUNCTION.name, description: PAGE_TOOL_FUNCTION.description, input_schema: PAGE_TOOL_FUNCTION.parameters };

export class AnthropicComputerUse implements Planner {
  readonly name: string;
  private readonly model: ClaudeModel;
  private readonly messages: MessageParam[] = [];
  /** Calls of the last reply not yet answered, in order. */
  private pending: Call[] = [];
  /** Results gathered for the last reply's calls, sent with the next request. */
  private results: ToolResultBlock[] = [];
  /** The call whose action the runtime is carrying out; answered on the next turn. */
  private inFlight: { call: Call; action: PlannerAction } | null = null;
  /** The left button as Claude pressed it: carried out as a click or a drag when it releases it. */
  private pressed: { from: Point; to: Point } | null = null;
  private narration = "";
  /** What the person added to the task that the model has not been told, for the next request. */
  private note: string | null = null;
  /** The screen to show after the results: after a discarded call, a toolset batch, or the person's reply. */
  private owesScreen = false;
  /** The last answer asked the person to act: the next request tells Claude what they answered. */
  private asked = false;
  /** How many of the person's follow-ups the model has been told. */
  private toldFollowUps = 0;
  /** The person's attached images: they stay in the conversation when old screenshots leave it. */
  private readonly attachedImages = new Set<ImageBlock>();
  /** The page's tools as Claude was told them. */
  private readonly pageTools = new PageToolList();

  constructor(private readonly options: AnthropicOptions) {
    this.name = `anthropic:${options.model}`;
    this.model = claudeModel(options.model);
  }

  capabilities(screenshot: Size): PlannerCapabilities {
    return { elements: false, imageSize: imageSizeFor(this.model, screenshot), verifyClicks: null, checkPointer: (input, signal) => this.checkPointer(input, signal) };
  }

  /**
   * Claude's look before a click the hit test could not confirm: a request of its own, outside the
   * task's conversation and without the tool, answered in PROTOCOL.md's pointer-check JSON; an
   * answer that is not is sent back once with the reason.
   */
  private async checkPointer(input: PointerCheckInput, signal: AbortSignal): Promise<PointerCheck> {
    const usage: Usage = { input_tokens: 0, output_tokens: 0 };
    const messages: MessageParam[] = [{ role: "user", content: [{ type: "text", text: pointerCheckQuestion(input) }, image(input.image)] }];
    for (let attempt = 0; ; attempt++) {
      const reply = await createMessage(
        { ...this.options.endpoint, beta: null },
        { model: this.options.model, max_tokens: POINTER_CHECK_TOKENS, system: [{ type: "text", text: POINTER_CHECK_SYSTEM, cache_control: { type: "ephemeral" } }], messages },
        signal,
      );
      usage.input_tokens += reply.usage.input_tokens;
      usage.output_tokens += reply.usage.output_tokens;
      const text = reply.content.flatMap((block) => (block.type === "text" && typeof block.text === "string" ? [block.text] : [])).join("\n");
      const parsed = parsePointerCheck(text);
      if (parsed.ok) return { ...parsed.value, usage };
      if (attempt >= 1) throw new AppError("PLANNER_INVALID_OUTPUT", `Claude's pointer check could not be used: ${parsed.error}.`);
      messages.push({ role: "assistant", content: reply.content }, { role: "user", content: [{ type: "text", text: `Your answer could not be used: ${parsed.error}. Answer with exactly one JSON object.` }] });
    }
  }

  async next(input: PlannerInput, signal: AbortSignal): Promise<PlannerTurn> {
    const usage: Usage = { input_tokens: 0, output_tokens: 0 };
    const display = { width: input.screenshot.width, height: input.screenshot.height };
    const added = newFollowUps(input, this.toldFollowUps);
    this.toldFollowUps = input.followUps?.length ?? 0;
    const declared = this.pageTools.news(input);
    if (this.messages.length === 0) {
      const attached = attachmentBlocks(input.attachments);
      for (const block of attached) if (block.type === "image") this.attachedImages.add(block);
      const told: TextBlock[] = declared ? [{ type: "text", text: declared }] : [];
      this.messages.push({ role: "user", content: [...firstMessage(input, attached), image(input.screenshot), ...told] });
    } else {
      if (this.inFlight) this.answerInFlight(input);
      if (this.asked) this.heedAnswer(input);
      if (added) this.heed(added);
      if (declared) this.tell(declared);
    }
    for (let requests = 0; ; ) {
      const call = this.pending.shift();
      if (call) {
        const action = await this.answer(call, input, display);
        if (!action) continue;
        this.inFlight = { call, action };
        const progress = this.narration || describePlannerAction(action);
        return { thought: this.narration, progress, action, usage, planner: this.name };
      }
      if (requests++ >= MAX_CALLS_PER_STEP) {
        throw new AppError("PLANNER_INVALID_OUTPUT", `Claude made ${MAX_CALLS_PER_STEP} requests in one step without an action that can be carried out.`);
      }
      const reply = await this.ask(input, signal);
      usage.input_tokens += reply.usage.input_tokens + (reply.usage.cache_creation_input_tokens ?? 0) + (reply.usage.cache_read_input_tokens ?? 0);
      usage.output_tokens += reply.usage.output_tokens;
      const text = reply.content
        .filter((block): block is TextBlock => block.type === "text" && typeof block.text === "string")
        .map((block) => block.text.trim())
        .filter(Boolean)
        .join("\n");
      const calls = reply.content.flatMap((block): Call[] => {
        const use = toolUseSchema.safeParse(block);
        if (!use.success) return [];
        const { id, name, input: args, toolset_name } = use.data;
        if (toolset_name === "computer") return [{ id, name, input: args, toolset: true, page: false }];
        if (name === PAGE_TOOL_NAME && !toolset_name) return [{ id, name, input: args, toolset: false, page: true }];
        return name === "computer" ? [{ id, name: typeof args.action === "string" ? args.action : "", input: args, toolset: false, page: false }] : [];
      });
      if (text) this.narration = text;
      if (calls.length === 0) return this.final(text, usage);
      this.pending = calls;
    }
  }

  /** The call in flight was not carried out, nor what Claude planned after it; it is told why. */
  discard(reason: string): void {
    const why = `Not carried out: ${reason.replace(/\.$/, "")}.`;
    if (this.inFlight) this.results.push(result(this.inFlight.call, [{ type: "text", text: why }], true));
    this.inFlight = null;
    this.owesScreen = true;
    this.endBatch(why);
  }

  /** Answers a call at once (looking, the button held) or returns the action it asks for; a refusal ends the batch. */
  private async answer(call: Call, input: PlannerInput, display: Size): Promise<PlannerAction | null> {
    const refuse = (reason: string) => {
      this.results.push(result(call, [{ type: "text", text: reason }], true));
      this.endBatch(NOT_RUN);
      return null;
    };
    if (call.page) {
      const action = pageToolAction(call.input, this.narration);
      return "refused" in action ? refuse(action.refused) : action;
    }
    const cursor = async () => this.pressed?.to ?? (input.screen ? input.screen.cursor() : Promise.reject(new Error("where the pointer is cannot be told here")));
    const translated = await translate(call.name, call.input, display, this.narration, cursor);
    const done = (text: string) => {
      this.results.push(result(call, [{ type: "text", text }]));
      return null;
    };
    switch (translated.kind) {
      case "screenshot":
        this.results.push(result(call, screen(input)));
        return null;
      case "zoom": {
        if (!input.screen) return refuse("zoom is not available on this screen");
        this.results.push(result(call, [image(await input.screen.zoom(translated.region))]));
        return null;
      }
      case "cursor": {
        const at = await cursor().catch((error: Error) => error);
        return at instanceof Error ? refuse(at.message) : done(`X=${at.x},Y=${at.y}`);
      }
      case "press":
        if (this.pressed) return refuse("the left button is already down; release it with left_mouse_up");
        this.pressed = { from: translated.at, to: translated.at };
        return done(`The left button is down at (${translated.at.x}, ${translated.at.y}).`);
      case "release": {
        if (!this.pressed) return refuse("the left button is not down; press it with left_mouse_down");
        const { from } = this.pressed;
        this.pressed = null;
        const at = translated.at;
        const intent = this.narration;
        if (at.x === from.x && at.y === from.y) return { type: "click", args: { ...from, button: "left" }, intent, requires_verification: false };
        return { type: "drag", args: { ...from, end_x: at.x, end_y: at.y }, intent, requires_verification: false };
      }
      case "refuse":
        return refuse(translated.reason);
      case "act":
        if (!this.pressed) return translated.action;
        if (translated.action.type !== "move") return refuse(`the left button is down; release it with left_mouse_up before ${call.name}`);
        this.pressed.to = { x: translated.action.args.x, y: translated.action.args.y };
        return done("Moved with the left button down.");
    }
  }

  /** The action of the call in flight was carried out: with the 2025 tool its result is the screen now, in the toolset a line. */
  private answerInFlight(input: PlannerInput): void {
    const { call, action } = this.inFlight!;
    this.inFlight = null;
    if (action.type === "page_tool") {
      // A page's tool answers in words; the screen it may have changed follows, and a call that did not run ends the batch.
      const { text, error } = pageToolResult(input.pageToolAnswer);
      this.results.push(result(call, [{ type: "text", text }], error));
      this.owesScreen = true;
      if (error) this.endBatch(NOT_RUN);
      return;
    }
    this.results.push(result(call, call.toolset ? [{ type: "text", text: `Done: ${describeAction(action)}.` }] : screen(input)));
  }

  /** The person was asked to act and answered: Claude is told, with the screen as they left it. */
  private heedAnswer(input: PlannerInput): void {
    this.asked = false;
    const reply = ANSWERED.exec(input.history.at(-1) ?? "")?.[1]?.trim();
    this.note = reply ? `The person answered: ${reply}` : "The person says they are done.";
    this.owesScreen = true;
  }

  /** The person added to the task: what the model planned before it knew is not carried out, and it is told why. */
  private heed(added: string): void {
    this.endBatch(NOT_CARRIED_OUT);
    this.tell(added);
  }

  /** A note for the next request. */
  private tell(text: string): void {
    this.note = this.note ? `${this.note}\n${text}` : text;
  }

  /** The calls not yet answered are answered as not carried out, for `why`; a button held for them is let go. */
  private endBatch(why: string): void {
    for (const call of this.pending) this.results.push(result(call, [{ type: "text", text: why }], true));
    this.pending = [];
    this.pressed = null;
  }

  private final(text: string, usage: Usage): PlannerTurn {
    const request = text ? askedOfPerson(text) : null;
    this.asked = request !== null;
    const answer = request ?? (text || "Done.");
    const action: PlannerAction = request ? { type: "needs_user", args: { answer }, intent: "", requires_verification: false } : { type: "done", args: { answer }, intent: "", requires_verification: false };
    return { thought: text, progress: firstSentence(answer), action, usage, planner: this.name };
  }

  private async ask(input: PlannerInput, signal: AbortSignal) {
    // A toolset batch whose last result was not an image is followed by the screen it left.
    const lastResult = this.results.at(-1);
    if (this.model.tool === "computer_toolset_20260801" && lastResult && !lastResult.content.some((block) => block.type === "image")) this.owesScreen = true;
    const note: TextBlock[] = this.note ? [{ type: "text", text: this.note }] : [];
    const shown: (TextBlock | ImageBlock)[] = this.owesScreen ? [{ type: "text", text: "The screen now:" }, ...screen(input)] : [];
    if (this.results.length > 0 || note.length > 0 || shown.length > 0) {
      this.messages.push({ role: "user", content: [...this.results, ...note, ...shown] });
      this.results = [];
      this.note = null;
      this.owesScreen = false;
    }
    dropOldImages(this.messages, KEEP_IMAGES, this.attachedImages);
    const { tool, beta } = toolFor(this.model, input.screenshot);
    const reply = await createMessage(
      { ...this.options.endpoint, beta },
      {
        model: this.options.model,
        max_tokens: this.options.maxTokens,
        system: [{ type: "text", text: SYSTEM_PROMPT, cache_control: { type: "ephemeral" } }],
        tools: [tool, ...(this.pageTools.offered ? [PAGE_TOOL] : [])],
        messages: this.messages,
      },
      signal,
    );
    this.messages.push({ role: "assistant", content: reply.content });
    return reply;
  }
}

/** The `tools` entry and beta header of the model's tool version; the display is the image sent. */
function toolFor(model: ClaudeModel, display: Size): { tool: ComputerTool | ComputerToolset; beta: string | null } {
  const size = { display_width_px: display.width, display_height_px: display.height };
  switch (model.tool) {
    case "computer_toolset_20260801":
      return { tool: { type: model.tool }, beta: null };
    case "computer_20251124":
      return { tool: { type: model.tool, name: "computer", ...size, enable_zoom: true }, beta: "computer-use-2025-11-24" };
    case "computer_20250124":
      return { tool: { type: model.tool, name: "computer", ...size }, beta: "computer-use-2025-01-24" };
  }
}

function result(call: Call, content: (TextBlock | ImageBlock)[], isError = false): ToolResultBlock {
  return { type: "tool_result", tool_use_id: call.id, ...(call.toolset ? { toolset_name: "computer" } : {}), content, ...(isError ? { is_error: true } : {}) };
}

/** The task, where the computer is, the person's files, then the screen the first screenshot shows. */
function firstMessage(input: PlannerInput, attached: (TextBlock | ImageBlock | DocumentBlock)[]): (TextBlock | ImageBlock | DocumentBlock)[] {
  const where = input.window ? `${windowLine(input.window)}.` : input.url ? `The browser shows ${input.url}.` : "";
  const opening = [taskText(input), where].filter(Boolean).join("\n");
  if (attached.length === 0) return [{ type: "text", text: `${opening}\nThe current screen:` }];
  return [{ type: "text", text: opening }, ...attached, { type: "text", text: "The current screen:" }];
}

/** A screenshot as a tool result: on a desktop, with the window that has the focus now. */
function screen(input: PlannerInput): (TextBlock | ImageBlock)[] {
  return [...(input.window ? [{ type: "text" as const, text: windowLine(input.window) }] : []), image(input.screenshot)];
}

function image(shot: Screenshot): ImageBlock {
  return { type: "image", source: { type: "base64", media_type: shot.mimeType, data: shot.data.toString("base64") } };
}

/** Keeps the newest `keep` screenshots; older ones become a short note, so the context stays small. The person's images stay. */
function dropOldImages(messages: MessageParam[], keep: number, attached: ReadonlySet<ImageBlock>): void {
  let seen = 0;
  for (let m = messages.length - 1; m >= 0; m--) {
    const message = messages[m]!;
    if (message.role !== "user") continue;
    for (const block of [...message.content].reverse()) {
      const holder = block.type === "tool_result" ? block.content : null;
      const list = holder ?? [block];
      for (let i = list.length - 1; i >= 0; i--) {
        const item = list[i]!;
        if (item.type !== "image" || attached.has(item)) continue;
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
