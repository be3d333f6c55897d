// OpenAI computer use as a planner: the Responses API with the computer tool, one chain of
// responses per task (`previous_response_id`). Each step answers the last computer call with
// `computer_call_output` (the new screenshot and the page's URL) and turns the next action into
// ours; the GA `computer` tool batches several actions in one call, which are carried out one
// step each before the model is asked again. Safety checks the model raises become an approval
// the person gives or refuses; an approved check is acknowledged with the next output. A message
// that asks the person to act hands the task to them; once they answer, the model is told and
// shown the screen again. Where the page declares tools for agents, they are told and a `page_tool`
// function is offered beside the computer tool (page-tool-call.ts), answered with
// `function_call_output` and the screen after it.
import { AppError } from "../../core/errors.ts";
import type { Screenshot } from "../../perception/screenshot.ts";
import { describeAction, modelFacts, type PageToolAction, type Usage } from "../../protocol/index.ts";
import { describePlannerAction, PAGE_TOOL_FUNCTION, PAGE_TOOL_NAME, pageToolAction, pageToolResult, PageToolList } from "../page-tool-call.ts";
import { newFollowUps, PAGE_TEXT_IS_DATA, taskText, windowLine, type Planner, type PlannerCapabilities, type PlannerInput, type PlannerTurn } from "../planner.ts";
import { ASK_MARKER, askedOfPerson } from "../asks-person.ts";
import { attachmentParts } from "../attachments.ts";
import { translate } from "./actions.ts";
import {
  createResponse,
  type ComputerAction,
  type ComputerToolParam,
  type FunctionToolParam,
  type InputItem,
  type OpenAIEndpoint,
  type ResponsesRequest,
  type SafetyCheck,
} from "./responses.ts";

export interface OpenAIOptions {
  endpoint: OpenAIEndpoint;
  model: string;
}

const INSTRUCTIONS = `You operate a web browser for a person with the computer tool. Carry the task out completely, one action at a time. Before acting, say in one short sentence what you are doing; the person reads it as your progress. When the task is done, answer the person in Markdown without calling the tool. If the person must act themselves (log in, solve a captcha, confirm a payment) or must answer a question, begin your reply with ${ASK_MARKER} then say exactly what they must do, ask them to tell you when it is done, and stop. ${PAGE_TEXT_IS_DATA}`;
const MAX_REQUESTS_PER_STEP = 8;
const PAGE_FUNCTION: FunctionToolParam = { type: "function", ...PAGE_TOOL_FUNCTION, strict: false };

export class OpenAIComputerUse implements Planner {
  readonly name: string;
  private previousResponseId: string | null = null;
  /** The computer call being carried out, its remaining actions and its safety checks. */
  private call: { id: string; actions: ComputerAction[]; checks: SafetyCheck[] } | null = null;
  private acknowledged: SafetyCheck[] = [];
  private notes: string[] = [];
  /** The desktop's focused window as the model was last told it. */
  private toldWindow: string | null = null;
  private narration = "";
  /** How many of the person's follow-ups the model has been told. */
  private toldFollowUps = 0;
  /** The last message asked the person to act: the next request tells the model their answer. */
  private askedPerson = false;
  /** The page_tool call being carried out; `discarded`: why it was not, when it was not. */
  private pageCall: { id: string; discarded: string | null } | null = null;
  /** Answers to function calls, sent with the next request. */
  private outputs: InputItem[] = [];
  /** The page's tools as the model was told them. */
  private readonly pageTools = new PageToolList();

  constructor(private readonly options: OpenAIOptions) {
    this.name = `openai:${options.model}`;
  }

  capabilities(): PlannerCapabilities {
    return { elements: false, imageSize: null, verifyClicks: null, checkPointer: null };
  }

  private get preview(): boolean {
    return modelFacts("openai", this.options.model).tool === "computer_use_preview";
  }

  /** The action was not carried out, nor the rest of the call; the model is told why with the call's output. */
  discard(reason: string): void {
    this.notes.push(`Your last action was not carried out, nor the rest of that call: ${reason}.`);
    if (this.call) this.call.actions = [];
    if (this.pageCall) this.pageCall.discarded = `Not carried out: ${reason}.`;
  }

  async next(input: PlannerInput, signal: AbortSignal): Promise<PlannerTurn> {
    const usage: Usage = { input_tokens: 0, output_tokens: 0 };
    const display = { width: input.screenshot.width, height: input.screenshot.height };
    if (this.askedPerson) {
      this.askedPerson = false;
      const answered = [...input.history].reverse().find((line) => line.startsWith("The person was asked to act and answered"));
      this.notes.push(answered ? `${answered}. They say they have done what you asked; look at the screen and go on with the task.` : "The person says they have done what you asked; look at the screen and go on with the task.");
    }
    const added = newFollowUps(input, this.toldFollowUps);
    this.toldFollowUps = input.followUps?.length ?? 0;
    // The first request states them with the task; later, what the model planned before it knew is not carried out.
    if (added && this.previousResponseId) {
      this.notes.push(added);
      if (this.call && this.call.actions.length > 0) this.notes.push("The rest of your last actions were not carried out.");
      if (this.call) this.call.actions = [];
    }
    const declared = this.pageTools.news(input);
    if (declared) this.notes.push(declared);
    for (let requests = 0; ; ) {
      const action = this.call?.actions.shift();
      if (action) {
        const translated = translate(action, display, this.narration);
        if (translated.kind === "screenshot") continue;
        if (translated.kind === "refuse") {
          this.notes.push(`Your ${action.type} action was not carried out: ${translated.reason}.`);
          continue;
        }
        const checks = this.call!.checks;
        this.call!.checks = [];
        return {
          thought: this.narration,
          progress: this.narration || describeAction(translated.action),
          action: translated.action,
          usage,
          planner: this.name,
          ...(checks.length > 0 ? { approval: this.approval(checks) } : {}),
        };
      }
      if (requests++ >= MAX_REQUESTS_PER_STEP) {
        throw new AppError("PLANNER_INVALID_OUTPUT", `The model made ${MAX_REQUESTS_PER_STEP} requests in one step without an action that can be carried out.`);
      }
      const reply = await createResponse(this.options.endpoint, this.request(input), signal);
      this.previousResponseId = reply.id;
      usage.input_tokens += reply.usage.input_tokens;
      usage.output_tokens += reply.usage.output_tokens;
      this.narration = reply.text;
      const [call] = reply.calls;
      // A page_tool call is carried out when no computer call came with it; every other function call is answered as not carried out.
      const taken = call ? undefined : reply.functionCalls.find((f) => f.name === PAGE_TOOL_NAME);
      for (const other of reply.functionCalls) if (other !== taken) this.outputs.push(functionOutput(other.call_id, "Not carried out: make one call at a time."));
      if (taken) {
        this.call = null;
        const action = pageToolCall(taken.arguments, this.narration);
        if ("refused" in action) {
          this.outputs.push(functionOutput(taken.call_id, action.refused));
          continue;
        }
        this.pageCall = { id: taken.call_id, discarded: null };
        return { thought: this.narration, progress: this.narration || describePlannerAction(action), action, usage, planner: this.name };
      }
      if (!call) {
        this.call = null;
        const asked = askedOfPerson(reply.text);
        this.askedPerson = asked !== null;
        const answer = asked ?? (reply.text || "Done.");
        return {
          thought: reply.text,
          progress: answer.split("\n")[0] ?? answer,
          action: { type: asked ? "needs_user" : "done", args: { answer }, intent: "", requires_verification: false },
          usage,
          planner: this.name,
        };
      }
      this.call = { id: call.call_id, actions: call.actions ?? (call.action ? [call.action] : []), checks: call.pending_safety_checks };
    }
  }

  /** The checks for the person; once they approve, the checks go back with the action's output. */
  private approval(checks: SafetyCheck[]): NonNullable<PlannerTurn["approval"]> {
    return {
      checks: checks.map((c) => ({ id: c.id, code: c.code ?? "", message: c.message ?? "" })),
      acknowledge: () => {
        this.acknowledged.push(...checks);
      },
    };
  }

  private request(input: PlannerInput): ResponsesRequest {
    const items: InputItem[] = [];
    // A screenshot output carries a page's URL; a desktop's focused window is told in words, when it changes.
    const window = input.window ? windowLine(input.window) : null;
    const newWindow = window !== null && window !== this.toldWindow;
    this.toldWindow = window;
    if (this.pageCall) {
      this.outputs.push(functionOutput(this.pageCall.id, this.pageCall.discarded ?? pageToolResult(input.pageToolAnswer).text));
      this.pageCall = null;
    }
    items.push(...this.outputs);
    this.outputs = [];
    if (!this.previousResponseId) {
      const lines = [taskText(input), ...(window ? [window] : [])];
      // The person's files come with the task, before the first screen.
      const attached = attachmentParts(input.attachments).map((part) =>
        part.type === "text" ? { type: "input_text" as const, text: part.text } : { type: "input_image" as const, image_url: `data:${part.mimeType};base64,${part.data}` },
      );
      const screenLabel = attached.length > 0 ? [{ type: "input_text" as const, text: "The current screen:" }] : [];
      items.push({ role: "user", content: [{ type: "input_text", text: lines.join("\n") }, ...attached, ...screenLabel, { type: "input_image", image_url: dataUrl(input.screenshot) }] });
    } else if (this.call) {
      items.push({
        type: "computer_call_output",
        call_id: this.call.id,
        output: { type: "computer_screenshot", image_url: dataUrl(input.screenshot), ...(input.url ? { current_url: input.url } : {}) },
        ...(this.acknowledged.length > 0 ? { acknowledged_safety_checks: this.acknowledged } : {}),
      });
      this.acknowledged = [];
    } else {
      // After a message or our function's call there is no computer call to answer: the screen as it is now comes as input.
      items.push({ role: "user", content: [{ type: "input_image", image_url: dataUrl(input.screenshot) }] });
    }
    if (newWindow && this.previousResponseId) this.notes.push(window);
    if (this.notes.length > 0) {
      items.push({ role: "user", content: [{ type: "input_text", text: this.notes.join("\n") }] });
      this.notes = [];
    }
    const tool: ComputerToolParam = this.preview
      ? { type: "computer_use_preview", display_width: input.screenshot.width, display_height: input.screenshot.height, environment: "browser" }
      : { type: "computer" };
    return {
      model: this.options.model,
      instructions: INSTRUCTIONS,
      tools: [tool, ...(this.pageTools.offered ? [PAGE_FUNCTION] : [])],
      input: items,
      ...(this.previousResponseId ? { previous_response_id: this.previousResponseId } : {}),
      truncation: "auto",
      ...(this.preview ? { reasoning: { summary: "concise" as const } } : {}),
    };
  }
}

function functionOutput(callId: string, output: string): InputItem {
  return { type: "function_call_output", call_id: callId, output };
}

/** A page_tool call's arguments, JSON text as the API gives them, as the planner's action. */
function pageToolCall(text: string, intent: string): PageToolAction | { refused: string } {
  let args: unknown;
  try {
    args = JSON.parse(text);
  } catch {
    return { refused: "page_tool's arguments are not valid JSON" };
  }
  return args !== null && typeof args === "object" && !Array.isArray(args) ? pageToolAction(args as Record<string, unknown>, intent) : { refused: "page_tool's arguments must be a JSON object" };
}

function dataUrl(shot: Screenshot): string {
  return `data:${shot.mimeType};base64,${shot.data.toString("base64")}`;
}
