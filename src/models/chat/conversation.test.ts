// The conversation loop against a scripted chat model: what the model is told about a tool, how
// its calls are checked, what the repair budget counts, and how a JSON question is repaired.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ChatModel, ChatRequest, ChatStreamEvent } from "./chat-model.ts";
import { askForJson, RepairBudget, streamReply } from "./conversation.ts";

/** A chat model that gives its answers in order and keeps the requests it was sent. */
function scripted(...answers: ChatStreamEvent[][]): ChatModel & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    name: "test/scripted",
    requests,
    async *stream(request) {
      requests.push(structuredClone(request));
      const answer = answers.shift();
      if (!answer) throw new Error("no answer scripted");
      yield* answer;
    },
  };
}

const call = (name: string, args: string, id = "call_1"): ChatStreamEvent => ({ type: "tool_call", call: { id, name, arguments: args } });
const done = (input_tokens = 10, output_tokens = 5): ChatStreamEvent => ({ type: "done", usage: { input_tokens, output_tokens } });
const text = (t: string): ChatStreamEvent => ({ type: "delta", text: t });

const greet = { name: "greet", description: "Greets someone.", input: z.strictObject({ who: z.string().min(1, "must not be empty"), times: z.number().int().max(3).optional() }) };
const wait = { name: "wait", description: "Waits.", input: z.object({ ms: z.number().default(100) }) };

describe("streamReply", () => {
  it("tells the model each tool's JSON Schema, made from its zod input", async () => {
    const model = scripted([text("Hi."), done()]);
    await streamReply(model, { system: "s", turns: [{ role: "user", text: "hello" }], tools: [greet], toolChoice: "none" }, { signal: AbortSignal.timeout(1000) });
    expect(model.requests[0]).toEqual({
      system: "s",
      turns: [{ role: "user", text: "hello" }],
      toolChoice: "none",
      tools: [
        {
          name: "greet",
          description: "Greets someone.",
          parameters: {
            type: "object",
            properties: { who: { type: "string", minLength: 1 }, times: { type: "integer", maximum: 3, minimum: -9007199254740991 } },
            required: ["who"],
            additionalProperties: false,
          },
        },
      ],
    });
  });

  it("hands each delta on in order, awaited, and collects the text, calls and usage", async () => {
    const model = scripted([text("One, "), text("two."), call("greet", '{"who":"Ada"}'), call("wait", ""), done(12, 7)]);
    const seen: string[] = [];
    const reply = await streamReply(model, { system: "s", turns: [], tools: [greet, wait] }, {
      signal: AbortSignal.timeout(1000),
      onDelta: async (delta) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        seen.push(delta);
      },
    });
    expect(seen).toEqual(["One, ", "two."]);
    expect(reply.text).toBe("One, two.");
    expect(reply.usage).toEqual({ input_tokens: 12, output_tokens: 7 });
    // Blank arguments are no arguments, and the schema's defaults apply.
    expect(reply.calls.map((c) => (c.ok ? [c.tool.name, c.input] : c.error))).toEqual([
      ["greet", { who: "Ada" }],
      ["wait", { ms: 100 }],
    ]);
  });

  it("answers an unknown tool, arguments that are not JSON and a schema failure with why, charging the budget once each", async () => {
    const model = scripted([call("shell", '{"command":"rm -rf /"}', "a"), call("greet", '{"who": "Ada", ', "b"), call("greet", '{"who":"Ada","times":9}', "c"), done()]);
    const budget = new RepairBudget(2);
    const reply = await streamReply(model, { system: "s", turns: [], tools: [greet, wait] }, { signal: AbortSignal.timeout(1000), budget });
    expect(reply.calls).toEqual([
      { ok: false, call: { id: "a", name: "shell", arguments: '{"command":"rm -rf /"}' }, error: { code: "UNKNOWN_TOOL", message: 'There is no tool named "shell"; the tools are greet, wait.' } },
      { ok: false, call: { id: "b", name: "greet", arguments: '{"who": "Ada", ' }, error: { code: "INVALID_ARGUMENTS", message: 'The arguments are not JSON: {"who": "Ada", ' } },
      {
        ok: false,
        call: { id: "c", name: "greet", arguments: '{"who":"Ada","times":9}' },
        error: { code: "INVALID_ARGUMENTS", message: "times: Too big: expected number to be <=3" },
        json: { who: "Ada", times: 9 },
      },
    ]);
    // Three unusable calls with two repairs: spent.
    expect(budget.spent).toBe(true);
  });

  it("names the only tool when there is one, and reports no usage when the stream gives none", async () => {
    const reply = await streamReply(scripted([call("greet", "{}"), call("fly", "{}", "call_2")]), { system: "s", turns: [], tools: [greet] }, { signal: AbortSignal.timeout(1000) });
    expect(reply.calls.map((c) => !c.ok && c.error.message)).toEqual(["who: Invalid input: expected string, received undefined", 'There is no tool named "fly"; the only tool is greet.']);
    expect(reply.usage).toEqual({ input_tokens: 0, output_tokens: 0 });
  });

  it("rejects with the signal's reason when stopped mid-stream, after the deltas before it", async () => {
    const controller = new AbortController();
    const model: ChatModel = {
      name: "test/slow",
      async *stream(_request, streamSignal) {
        yield text("Let me th");
        await new Promise((resolve) => setTimeout(resolve, 50));
        streamSignal.throwIfAborted();
        yield text("ink.");
      },
    };
    let shown = "";
    const replying = streamReply(model, { system: "s", turns: [], tools: [] }, { signal: controller.signal, onDelta: (delta) => void (shown += delta) });
    controller.abort(new Error("stopped"));
    await expect(replying).rejects.toThrow("stopped");
    expect(shown).toBe("Let me th");
  });
});

describe("RepairBudget", () => {
  it("is spent once more outputs were unusable than it has repairs", () => {
    const budget = new RepairBudget(2);
    expect(budget.spent).toBe(false);
    budget.charge();
    budget.charge();
    expect(budget.spent).toBe(false);
    budget.charge();
    expect(budget.spent).toBe(true);
    expect(new RepairBudget().repairs).toBe(2);
    const none = new RepairBudget(0);
    none.charge();
    expect(none.spent).toBe(true);
  });
});

describe("askForJson", () => {
  const validate = (value: unknown) => {
    const parsed = z.object({ index: z.number() }).safeParse(value);
    return parsed.success ? { ok: true as const, value: parsed.data.index } : { ok: false as const, error: "index: must be a number" };
  };

  it("reads fenced JSON, and sends an unusable answer back once with the reason", async () => {
    const model = scripted([text('{"index": "two"}'), done(3, 1)], [text('```json\n{"index": 2}\n```'), done(4, 2)]);
    const usage: unknown[] = [];
    const answer = await askForJson(model, { system: "choose", question: "Which?", validate, signal: AbortSignal.timeout(1000), onUsage: (u) => usage.push(u) });
    expect(answer).toEqual({ ok: true, value: 2 });
    expect(usage).toEqual([
      { input_tokens: 3, output_tokens: 1 },
      { input_tokens: 4, output_tokens: 2 },
    ]);
    expect(model.requests[1]!.turns).toEqual([
      { role: "user", text: "Which?" },
      { role: "assistant", text: '{"index": "two"}', toolCalls: [] },
      { role: "user", text: "That answer could not be used: index: must be a number. Answer again with one JSON object only." },
    ]);
    expect(model.requests[1]!.tools).toEqual([]);
  });

  it("gives up with the last reason when its budget is spent", async () => {
    const model = scripted([text("I think the second."), done()], [text(""), done()], [text("{}"), done()]);
    const answer = await askForJson(model, { system: "choose", question: "Which?", validate, signal: AbortSignal.timeout(1000) });
    expect(answer).toEqual({ ok: false, error: "the answer contains no JSON object" });
    expect(model.requests).toHaveLength(2);
    // An empty answer is not sent back as a turn (Anthropic refuses empty content).
    const longer = scripted([text(""), done()], [text("{}"), done()], [text('{"index": 0}'), done()]);
    expect(await askForJson(longer, { system: "choose", question: "Which?", validate, signal: AbortSignal.timeout(1000), budget: new RepairBudget(2) })).toEqual({ ok: true, value: 0 });
    expect(longer.requests[1]!.turns.map((t) => t.role)).toEqual(["user", "user"]);
  });
});
