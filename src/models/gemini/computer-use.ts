// Gemini computer use as a planner: one generateContent conversation per task with the
// computerUse tool, in the action set and environments its model has (the provider table). The
// model answers with function calls on its 0–999 grid; each becomes one or more of our actions
// (actions.ts), and once they are carried out the call is answered with a functionResponse
// holding the page's URL and the screenshot after it. Only the latest few turns keep their
// screenshots. A call flagged `safety_decision: require_confirmation` waits for the
// person's approval and is answered with `safety_acknowledgement`. An answer in words either asks
// the person to act (needs_user; their reply goes back to the model) or ends the task. Where the page
// declares tools for agents, they are told and a `page_tool` function is declared beside
// computerUse (page-tool-call.ts), answered with the tool's answer and the screen after it.
import { AppError } from "../../core/errors.ts";
import type { Size } from "../../perception/coordinates.ts";
import type { Screenshot } from "../../perception/screenshot.ts";
import type { Point } from "../../perception/coordinates.ts";
import { modelFacts, type PlannerAction, type Usage } from "../../protocol/index.ts";
import { describePlannerAction, PAGE_TOOL_FUNCTION, PAGE_TOOL_NAME, pageToolAction, pageToolResult, PageToolList } from "../page-tool-call.ts";
import { newFollowUps, PAGE_TEXT_IS_DATA, taskText, windowLine, type Planner, type PlannerCapabilities, type PlannerInput, type PlannerTurn } from "../planner.ts";
import { normalizeChord } from "../../protocol/keys.ts";
import { BROWSER_ONLY, translate, type ActionSet } from "./actions.ts";
import { ASK_MARKER, askedOfPerson } from "../asks-person.ts";
import {
  attachmentParts,
  functionCallSchema,
  generateContent,
  type ComputerUseTool,
  type Content,
  type FunctionCall,
  type FunctionDeclarationsTool,
  type FunctionResponsePart,
  type GeminiEndpoint,
  type InlineData,
  type UserPart,
} from "./generate-content.ts";

export interface GeminiOptions {
  endpoint: GeminiEndpoint;
  model: string;
}

const MAX_REQUESTS_PER_STEP = 8;
/** Turns that keep their screenshots, as Google's reference client keeps them. */
const KEEP_SCREENSHOT_TURNS = 3;
const OLD_SCREENSHOT = "(an earlier screenshot, no longer shown)";
const PAGE_FUNCTION: FunctionDeclarationsTool = {
  functionDeclarations: [{ name: PAGE_TOOL_FUNCTION.name, description: PAGE_TOOL_FUNCTION.description, parametersJsonSchema: PAGE_TOOL_FUNCTION.parameters }],
};

function systemPrompt(desktop: boolean): string {
  const where = desktop ? "a computer's desktop" : "a web browser";
  return `You operate ${where} for a person with the computer use functions, one action at a time, and see the screen after each. Carry the task out completely. Before each action say in one short sentence what you are doing; the person reads it as your progress. When the task is done, answer the person in Markdown without calling a function. If the person must act themselves (sign in, solve a captcha, confirm a payment) or must make a choice that is theirs, begin your reply with ${ASK_MARKER} then say exactly what they must do, ask them to tell you when they are done, and stop. ${PAGE_TEXT_IS_DATA}`;
}

/** The computerUse tool: the 2026 set has a desktop environment; the 2025 set, browser only, is offered there without its browser functions. */
export function computerUseTool(desktop: boolean, set: ActionSet): ComputerUseTool {
  if (set === "2026") return { computerUse: { environment: desktop ? "ENVIRONMENT_DESKTOP" : "ENVIRONMENT_BROWSER" } };
  return { computerUse: { environment: "ENVIRONMENT_BROWSER", ...(desktop ? { excludedPredefinedFunctions: [...BROWSER_ONLY] } : {}) } };
}

/** A function call being carried out: its actions still to run and whether the person approved it. */
interface Running {
  call: FunctionCall;
  /** What the call is for: its own `intent` (2026) or the model's words before it. */
  intent: string;
  /** One page_tool call's action, or the computer actions a predefined function amounts to. */
  actions: PlannerAction[];
  focusFirst: boolean;
  started: boolean;
  acknowledged: boolean;
}

export class GeminiComputerUse implements Planner {
  readonly name: string;
  private readonly contents: Content[] = [];
  /** Calls of the last reply not started yet. */
  private pending: FunctionCall[] = [];
  private running: Running | null = null;
  /** The answers to the last reply's calls, sent with the next request. */
  private responses: FunctionResponsePart[] = [];
  private notes: string[] = [];
  /** The next request shows the screen as it is (no function response carries it). */
  private owesScreen = false;
  /** The last answer asked the person to act: their reply goes to the model with the next request. */
  private asked = false;
  private narration = "";
  private toldFollowUps = 0;
  /** The person's attached images: they stay in the conversation when old screenshots leave it. */
  private readonly attachedImages = new Set<UserPart>();
  private readonly set: ActionSet;
  /** Where the model put the mouse button down, and where it has moved it since (mouse_down … mouse_up). */
  private pressed: { from: Point; to: Point } | null = null;
  /** The keys the model holds down (key_down … key_up), and every key of the chord so far. */
  private held = { down: [] as string[], chord: [] as string[] };
  /** The page's tools as the model was told them. */
  private readonly pageTools = new PageToolList();

  constructor(private readonly options: GeminiOptions) {
    this.name = `gemini:${options.model}`;
    this.set = modelFacts("gemini", options.model).tool === "2026" ? "2026" : "2025";
  }

  capabilities(): PlannerCapabilities {
    // The grid is relative to whatever image is sent: no size of its own to ask for.
    return { elements: false, imageSize: null, verifyClicks: null, checkPointer: null };
  }

  async next(input: PlannerInput, signal: AbortSignal): Promise<PlannerTurn> {
    const usage: Usage = { input_tokens: 0, output_tokens: 0 };
    const image = { width: input.screenshot.width, height: input.screenshot.height };
    const desktop = isDesktop(input);
    const added = newFollowUps(input, this.toldFollowUps);
    this.toldFollowUps = input.followUps?.length ?? 0;
    const declared = this.pageTools.news(input);
    if (this.contents.length === 0) {
      const attached = attachmentParts(input.attachments);
      for (const part of attached) if ("inlineData" in part) this.attachedImages.add(part);
      // With files, the screen's line follows them.
      const opening = attached.length === 0 ? [{ text: `${firstMessage(input)}\nThe current screen:` }] : [{ text: firstMessage(input) }, ...attached, { text: "The current screen:" }];
      this.contents.push({ role: "user", parts: [...opening, inline(input.screenshot), ...(declared ? [{ text: declared }] : [])] });
    } else {
      if (this.running && this.running.actions.length === 0) this.answer(this.running, input, true);
      if (this.asked) this.notes.push(personAnswer(input));
      this.asked = false;
      if (added) this.heed(added, input);
      if (declared) this.notes.push(declared);
    }
    for (let requests = 0; ; ) {
      const turn = this.nextAction(input, image, usage);
      if (turn) return turn;
      if (requests++ >= MAX_REQUESTS_PER_STEP) {
        throw new AppError("PLANNER_INVALID_OUTPUT", `Gemini made ${MAX_REQUESTS_PER_STEP} requests in one step without an action that can be carried out.`);
      }
      const reply = await this.ask(input, desktop, signal);
      usage.input_tokens += reply.usageMetadata?.promptTokenCount ?? 0;
      usage.output_tokens += (reply.usageMetadata?.candidatesTokenCount ?? 0) + (reply.usageMetadata?.thoughtsTokenCount ?? 0);
      const candidate = reply.candidates?.[0];
      if (!candidate) {
        const blocked = reply.promptFeedback?.blockReason;
        throw new AppError("PLANNER_INVALID_OUTPUT", `Gemini gave no answer${blocked ? ` (the request was blocked: ${blocked})` : ""}.`);
      }
      const parts = candidate.content?.parts ?? [];
      // Google's reference asks again after a malformed call; the same request may well succeed.
      if (parts.length === 0 && candidate.finishReason === "MALFORMED_FUNCTION_CALL") continue;
      if (parts.length === 0) throw new AppError("PLANNER_INVALID_OUTPUT", `Gemini ended its answer with neither words nor an action (${candidate.finishReason ?? "no reason given"}).`);
      this.contents.push({ role: "model", parts });
      const text = parts.filter((p) => p.text && !p.thought).map((p) => p.text!.trim()).filter(Boolean).join("\n");
      const thought = parts.filter((p) => p.text && p.thought).map((p) => p.text!.trim()).join("\n");
      const calls = parts.flatMap((p) => {
        const call = functionCallSchema.safeParse(p.functionCall);
        return p.functionCall && call.success ? [call.data] : [];
      });
      if (text) this.narration = text;
      if (calls.length > 0) {
        this.pending = calls;
        continue;
      }
      const request = askedOfPerson(text);
      const asks = request !== null;
      const answer = request ?? (text || "Done.");
      this.asked = asks;
      this.owesScreen = asks;
      return {
        thought: thought || text,
        progress: firstLine(answer),
        action: { type: asks ? "needs_user" : "done", args: { answer }, intent: "", requires_verification: false },
        usage,
        planner: this.name,
      };
    }
  }

  /** The action in flight was not carried out, nor the rest of the calls; the model is told why. */
  discard(reason: string): void {
    const why = `Not carried out: ${reason.replace(/\.$/, "")}.`;
    if (this.running) this.responses.push(errorResponse(this.running.call, why));
    for (const call of this.pending) this.responses.push(errorResponse(call, why));
    this.running = null;
    this.pending = [];
    this.owesScreen = true;
  }

  /** The next action of the calls in hand, or null when the model must be asked. */
  private nextAction(input: PlannerInput, image: Size, usage: Usage): PlannerTurn | null {
    for (;;) {
      const running = this.running;
      if (running && running.actions.length > 0) {
        const action = running.actions.shift()!;
        const first = !running.started;
        running.started = true;
        const decision = first ? safetyDecision(running.call) : null;
        return {
          thought: running.intent,
          progress: running.intent || describePlannerAction(action),
          action,
          usage,
          planner: this.name,
          ...(first && running.focusFirst ? { focus: true } : {}),
          ...(decision
            ? {
                approval: {
                  checks: [{ id: running.call.id ?? running.call.name, code: "require_confirmation", message: decision }],
                  acknowledge: () => {
                    running.acknowledged = true;
                  },
                },
              }
            : {}),
        };
      }
      const call = this.pending.shift();
      if (!call) return null;
      const intent = (typeof call.args.intent === "string" && call.args.intent.trim()) || this.narration;
      const translated = translate(call.name, call.args, image, intent, this.set);
      const run = (actions: PlannerAction[], focusFirst = false) => {
        this.running = { call, intent, actions, focusFirst, started: false, acknowledged: false };
      };
      const answered = () => this.answer({ call, intent, actions: [], focusFirst: false, started: true, acknowledged: false }, input, true);
      const refused = (reason: string) => this.responses.push(errorResponse(call, reason, input.url));
      this.running = null;
      if (call.name === PAGE_TOOL_NAME) {
        const action = pageToolAction(call.args, intent);
        if ("refused" in action) refused(action.refused);
        else run([action]);
        continue;
      }
      switch (translated.kind) {
        case "act": {
          const only = translated.actions.length === 1 ? translated.actions[0]! : null;
          if (this.held.down.length > 0) refused(`${this.held.down.join(", ")} ${this.held.down.length > 1 ? "are" : "is"} held down; release with key_up first (hotkey presses keys together)`);
          else if (this.pressed && only?.type === "move") {
            this.pressed.to = { x: only.args.x, y: only.args.y };
            answered();
          } else if (this.pressed) refused(`the mouse button is down; release it with mouse_up before ${call.name}`);
          else run(translated.actions, translated.focusFirst);
          break;
        }
        case "screenshot":
          answered();
          break;
        case "press":
          if (this.pressed) refused("the mouse button is already down; release it with mouse_up");
          else {
            this.pressed = { from: translated.at, to: translated.at };
            answered();
          }
          break;
        case "release": {
          if (!this.pressed) {
            refused("the mouse button is not down; press it with mouse_down");
            break;
          }
          const { from } = this.pressed;
          const to = translated.at;
          this.pressed = null;
          const same = from.x === to.x && from.y === to.y;
          run([same ? { type: "click", args: { ...from, button: "left" }, intent, requires_verification: false } : { type: "drag", args: { ...from, end_x: to.x, end_y: to.y }, intent, requires_verification: false }]);
          break;
        }
        case "key_down":
          this.held.down.push(translated.key);
          this.held.chord.push(translated.key);
          answered();
          break;
        case "key_up": {
          const index = this.held.down.findIndex((k) => k.toLowerCase() === translated.key.toLowerCase());
          if (index < 0) {
            refused(`${translated.key} is not held down`);
            break;
          }
          this.held.down.splice(index, 1);
          if (this.held.down.length > 0) {
            answered();
            break;
          }
          // Every key is up again: the keys went down together, as one chord.
          const keys = normalizeChord(this.held.chord);
          this.held.chord = [];
          run([{ type: "keypress", args: { keys }, intent, requires_verification: false }]);
          break;
        }
        case "refuse":
          refused(translated.reason);
          break;
      }
    }
  }

  /** A finished call's functionResponse: the URL (or the focused window) and the screen after it. */
  private answer(running: Running, input: PlannerInput, withScreen: boolean): void {
    // A page's tool answers in words: its answer, or why it did not run.
    const said = running.call.name === PAGE_TOOL_NAME ? pageToolResult(input.pageToolAnswer) : null;
    const response: Record<string, unknown> = {
      ...(said ? { [said.error ? "error" : "result"]: said.text } : {}),
      ...(input.url ? { url: input.url } : {}),
      ...(input.window ? { window: windowLine(input.window) } : {}),
      ...(running.acknowledged ? { safety_acknowledgement: "true" } : {}),
    };
    this.responses.push({
      functionResponse: { name: running.call.name, ...(running.call.id ? { id: running.call.id } : {}), response, ...(withScreen ? { parts: [inline(input.screenshot)] } : {}) },
    });
    if (this.running === running) this.running = null;
  }

  /** The person added to the task: what the model planned before it knew is not carried out. */
  private heed(added: string, input: PlannerInput): void {
    const why = "Not carried out: the person added to the task before this action ran.";
    if (this.running) this.responses.push(errorResponse(this.running.call, why, input.url));
    for (const call of this.pending) this.responses.push(errorResponse(call, why, input.url));
    this.running = null;
    this.pending = [];
    this.notes.push(added);
  }

  private async ask(input: PlannerInput, desktop: boolean, signal: AbortSignal) {
    const parts: UserPart[] = [...this.responses, ...this.notes.map((text) => ({ text }))];
    if (this.owesScreen) parts.push({ text: input.window ? `The screen now (${windowLine(input.window)}):` : "The screen now:" }, inline(input.screenshot));
    if (parts.length > 0) this.contents.push({ role: "user", parts });
    this.responses = [];
    this.notes = [];
    this.owesScreen = false;
    dropOldScreenshots(this.contents, KEEP_SCREENSHOT_TURNS, this.attachedImages);
    return generateContent(
      this.options.endpoint,
      this.options.model,
      { systemInstruction: { parts: [{ text: systemPrompt(desktop) }] }, contents: this.contents, tools: [computerUseTool(desktop, this.set), ...(this.pageTools.offered ? [PAGE_FUNCTION] : [])] },
      signal,
    );
  }
}

/** A desktop names its focused window and has no page address. */
function isDesktop(input: PlannerInput): boolean {
  return Boolean(input.window) || input.url === null;
}

/** The explanation of a call the model's safety system wants the person to confirm, or null. */
function safetyDecision(call: FunctionCall): string | null {
  const decision = call.args.safety_decision as { decision?: unknown; explanation?: unknown } | undefined;
  if (decision?.decision !== "require_confirmation") return null;
  return typeof decision.explanation === "string" && decision.explanation ? decision.explanation : `Gemini asks you to confirm ${call.name}.`;
}

function errorResponse(call: FunctionCall, error: string, url?: string | null): FunctionResponsePart {
  return { functionResponse: { name: call.name, ...(call.id ? { id: call.id } : {}), response: { error, ...(url ? { url } : {}) } } };
}

/** What the driver recorded of the person's reply, as the model is told it. */
function personAnswer(input: PlannerInput): string {
  const last = input.history.at(-1);
  return last?.startsWith("The person was asked") ? last : "The person has done what you asked.";
}

function firstMessage(input: PlannerInput): string {
  const where = input.window ? windowLine(input.window) : input.url ? `The browser shows ${input.url}.` : "";
  return [taskText(input), where].filter(Boolean).join("\n");
}

function inline(shot: Screenshot): InlineData {
  return { inlineData: { mimeType: shot.mimeType, data: shot.data.toString("base64") } };
}

/** Keeps the screenshots of the newest `keep` user turns that have any; older ones lose theirs. The person's images stay. */
function dropOldScreenshots(contents: Content[], keep: number, attached: ReadonlySet<UserPart>): void {
  let seen = 0;
  for (let i = contents.length - 1; i >= 0; i--) {
    const content = contents[i]!;
    if (content.role !== "user" || !content.parts.some(hasScreenshot)) continue;
    if (++seen <= keep) continue;
    content.parts = content.parts.map((part) => {
      if ("inlineData" in part) return attached.has(part) ? part : { text: OLD_SCREENSHOT };
      if ("functionResponse" in part && part.functionResponse.parts) {
        const { parts: _dropped, ...rest } = part.functionResponse;
        return { functionResponse: rest };
      }
      return part;
    });
  }
}

function hasScreenshot(part: UserPart): boolean {
  return "inlineData" in part || ("functionResponse" in part && Boolean(part.functionResponse.parts?.length));
}

function firstLine(text: string): string {
  const line = text.split("\n").find((l) => l.trim()) ?? text;
  return line.length > 140 ? `${line.slice(0, 139)}…` : line;
}
