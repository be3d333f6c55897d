// The `judge` check's model: it is shown the task's end screen and answer and the suite's criteria,
// and answers success or not with a reason. It is a chat model of its own (EVAL_JUDGE_MODEL), so a
// run can be judged by another model than the one it measures.
import { z } from "zod";
import type { Config } from "../core/config.ts";
import { createChatModel } from "../models/chat/index.ts";
import type { ChatModel } from "../models/chat/chat-model.ts";
import { streamReply } from "../models/chat/conversation.ts";
import { extractJson } from "../models/json-planner/parse.ts";
import type { Judge, Verdict } from "./checks.ts";
import type { EndState } from "./end-state.ts";

/** Known to the scripted model of the tests, which answers a judge by it. */
export const JUDGE_SYSTEM = [
  "You judge whether a computer-use agent did its task, from the screen it ended on and its final answer.",
  'Answer with one JSON object {"success": true or false, "reason": "one sentence"}: success only when every criterion holds.',
].join("\n");

const answerSchema = z.object({ success: z.boolean(), reason: z.string().default("") });

type ChatProvider = "qwen" | "openai" | "anthropic" | "gemini";

/** The judge EVAL_JUDGE_MODEL names (`provider:model`, checked by the configuration), speaking its provider's chat protocol with the configured key. */
export function judgeFrom(config: Config): Judge | null {
  const setting = config.evaluation.judgeModel;
  if (!setting) return null;
  const [provider, ...name] = setting.split(":");
  return new ModelJudge(createChatModel({ ...config, chat: { ...config.chat, provider: provider as ChatProvider, name: name.join(":") } }));
}

class ModelJudge implements Judge {
  constructor(private readonly model: ChatModel) {}

  async judge(criteria: string, end: EndState, signal: AbortSignal): Promise<Verdict> {
    const text = [
      `Criteria: ${criteria}`,
      `The agent's final answer: ${end.answer ?? "(none)"}`,
      `The address it ended on: ${end.url ?? "(none)"}`,
      end.files.length > 0 ? `Files it received: ${end.files.join(", ")}` : "",
      end.screenshot ? "The screen it ended on is attached." : "There is no screenshot of its end.",
    ]
      .filter(Boolean)
      .join("\n");
    const files = end.screenshot ? [{ type: "image" as const, name: "end.jpg", mimeType: end.screenshot.mimeType, data: end.screenshot.data.toString("base64"), bytes: end.screenshot.data.length }] : [];
    const reply = await streamReply(this.model, { system: JUDGE_SYSTEM, turns: [{ role: "user", text, files }], tools: [] }, { signal });
    const json = extractJson(reply.text);
    const answer = json.ok ? answerSchema.safeParse(json.value) : null;
    if (!answer?.success) return { pass: false, why: `its answer was not {"success", "reason"}: ${JSON.stringify(reply.text.slice(0, 200))}` };
    return { pass: answer.data.success, why: answer.data.reason || (answer.data.success ? "success" : "failure") };
  }
}
