// One conversation loop for every streamed exchange with a chat model (the chat assistant, the
// tool agent, JSON questions): a tool is declared once, as zod, and the model is told its JSON
// Schema; an answer is streamed, collected and its tool calls checked against those schemas; and
// unusable outputs are counted by one repair budget. What to do when it is spent stays the caller's.
import { z } from "zod";
import type { Usage } from "../../protocol/index.ts";
import { extractJson } from "../json-planner/parse.ts";
import type { ChatModel, ChatRequest, ChatTurn, ToolCall, ToolSpec } from "./chat-model.ts";

/** A tool of a conversation: what the model reads about it, and the zod schema its arguments must pass. */
export interface ConversationTool<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  input: S;
}

/** Why a call was not taken; the model reads it back as the call's result. */
export interface CallError {
  code: "UNKNOWN_TOOL" | "INVALID_ARGUMENTS";
  message: string;
}

/**
 * A call of the answer, checked: its input as the tool's schema parsed it, or why it cannot run
 * (`json`: the arguments, when they were JSON at least — a step record keeps what was asked).
 */
export type CheckedCall<T extends ConversationTool = ConversationTool> =
  | (T extends ConversationTool ? { ok: true; call: ToolCall; tool: T; input: z.output<T["input"]> } : never)
  | { ok: false; call: ToolCall; error: CallError; json?: unknown };

/** One answer of the model, whole. `text` is as streamed (untrimmed); `usage` is zero if the stream gave none. */
export interface Reply<T extends ConversationTool = ConversationTool> {
  text: string;
  calls: CheckedCall<T>[];
  usage: Usage;
}

/** A request whose tools are declared as {@link ConversationTool}s. */
export type ConversationRequest<T extends ConversationTool> = Omit<ChatRequest, "tools"> & { tools: readonly T[] };

/** A value checked by the caller: usable, or the reason the model is told. */
export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** How many unusable outputs the model is sent back with the reason, when the configuration says nothing (`repairRetries`). */
export const DEFAULT_REPAIRS = 2;

/**
 * Counts the unusable outputs of one conversation — invalid calls, and whatever the caller finds
 * unusable (no call where one was needed, JSON that does not validate). Held across its answers.
 *
 * @example
 * const repairs = new RepairBudget(config.model.repairRetries);
 * if (!usable) { repairs.charge(); if (repairs.spent) giveUp(); else sendBackWhy(); }
 */
export class RepairBudget {
  private used = 0;

  constructor(readonly repairs: number = DEFAULT_REPAIRS) {}

  /** Counts one unusable output. */
  charge(): void {
    this.used++;
  }

  /** More outputs were unusable than there are repairs: the model gets no further second chance. */
  get spent(): boolean {
    return this.used > this.repairs;
  }
}

/** The tool as the chat model is told about it: its JSON Schema made from its zod input. */
export function toolSpec(tool: ConversationTool): ToolSpec {
  const { $schema: _, ...parameters } = z.toJSONSchema(tool.input, { io: "input" }) as Record<string, unknown>;
  return { name: tool.name, description: tool.description, parameters };
}

/** A zod failure as one line the model can act on: the first issue's path and message. */
export function firstIssue(error: z.ZodError, subject: string): string {
  const issue = error.issues[0];
  return `${issue?.path.join(".") || subject}: ${issue?.message}`;
}

/** Checks a call against the tool of its name; blank arguments are no arguments (`{}`). */
export function checkCall<T extends ConversationTool>(tools: readonly T[], call: ToolCall): CheckedCall<T> {
  const refuse = (code: CallError["code"], message: string, json?: unknown): CheckedCall<T> => ({
    ok: false,
    call,
    error: { code, message },
    ...(json === undefined ? {} : { json }),
  });
  const tool = tools.find((t) => t.name === call.name);
  if (!tool) return refuse("UNKNOWN_TOOL", `There is no tool named ${JSON.stringify(call.name)}; ${toolList(tools)}.`);
  let json: unknown;
  try {
    json = call.arguments.trim() ? JSON.parse(call.arguments) : {};
  } catch {
    return refuse("INVALID_ARGUMENTS", `The arguments are not JSON: ${call.arguments.slice(0, 200)}`);
  }
  const parsed = tool.input.safeParse(json);
  if (!parsed.success) return refuse("INVALID_ARGUMENTS", firstIssue(parsed.error, "arguments"), json);
  return { ok: true, call, tool, input: parsed.data } as CheckedCall<T>;
}

function toolList(tools: readonly ConversationTool[]): string {
  if (tools.length === 0) return "there are no tools";
  if (tools.length === 1) return `the only tool is ${tools[0]!.name}`;
  return `the tools are ${tools.map((t) => t.name).join(", ")}`;
}

export interface ReplyOptions {
  signal: AbortSignal;
  /** Each piece of text as it arrives, awaited before the next (the chat assistant emits it). */
  onDelta?: (text: string) => void | Promise<void>;
  /** Charged once per invalid call; without it, invalid calls are only answered with why. */
  budget?: RepairBudget;
}

/**
 * Streams one answer from the model and checks its tool calls. Rejects as the model's stream
 * does (an AppError, or the signal's reason on Stop); a caller that keeps `onDelta`'s text keeps
 * what was shown.
 *
 * @example
 * const reply = await streamReply(model, { system, turns, tools: [computerTask] }, { signal, budget, onDelta: show });
 * for (const c of reply.calls) turns.push(c.ok ? await run(c.input) : { ...c.error });
 */
export async function streamReply<T extends ConversationTool>(
  model: ChatModel,
  request: ConversationRequest<T>,
  { signal, onDelta, budget }: ReplyOptions,
): Promise<Reply<T>> {
  let text = "";
  const calls: ToolCall[] = [];
  let usage: Usage = { input_tokens: 0, output_tokens: 0 };
  for await (const event of model.stream({ ...request, tools: request.tools.map(toolSpec) }, signal)) {
    switch (event.type) {
      case "delta":
        text += event.text;
        await onDelta?.(event.text);
        break;
      case "tool_call":
        calls.push(event.call);
        break;
      case "done":
        usage = event.usage;
        break;
    }
  }
  const checked = calls.map((call) => checkCall(request.tools, call));
  for (const call of checked) if (!call.ok) budget?.charge();
  return { text, calls: checked, usage };
}

export interface JsonQuestion<T> {
  system: string;
  question: string;
  /** Checks the JSON the answer holds; a failure goes back to the model with its reason. */
  validate: (value: unknown) => Checked<T>;
  signal: AbortSignal;
  /** The tokens of every attempt. */
  onUsage?: (usage: Usage) => void;
  /** One repair unless given: a question is a small part of a bigger step. */
  budget?: RepairBudget;
}

/**
 * Asks one question whose answer must hold a JSON object (read with `extractJson`, so fenced or
 * wrapped JSON does), sending an unusable answer back with the reason until the budget is spent.
 */
export async function askForJson<T>(model: ChatModel, { system, question, validate, signal, onUsage, budget = new RepairBudget(1) }: JsonQuestion<T>): Promise<Checked<T>> {
  const turns: ChatTurn[] = [{ role: "user", text: question }];
  for (;;) {
    const reply = await streamReply(model, { system, turns, tools: [] }, { signal });
    onUsage?.(reply.usage);
    const json = extractJson(reply.text);
    const answer = json.ok ? validate(json.value) : json;
    if (answer.ok) return answer;
    budget.charge();
    if (budget.spent) return answer;
    if (reply.text.trim()) turns.push({ role: "assistant", text: reply.text, toolCalls: [] });
    turns.push({ role: "user", text: `That answer could not be used: ${answer.error}. Answer again with one JSON object only.` });
  }
}
