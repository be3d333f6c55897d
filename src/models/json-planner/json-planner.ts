// The default planner (seed 000 §5.2): any OpenAI-compatible vision model answering one JSON
// object per step. An unusable answer goes back to the model with the reason, at most
// `repairRetries` times; then the task fails with that reason.
import { AppError } from "../../core/errors.ts";
import type { Usage } from "../../protocol/index.ts";
import { chatCompletion, type ChatEndpoint, type ChatMessage } from "../openai-compatible/chat-completions.ts";
import type { Planner, PlannerInput, PlannerTurn } from "../planner.ts";
import { parsePlannerAnswer } from "./parse.ts";
import { repairRequest, SYSTEM_PROMPT, userContent } from "./prompt.ts";

export interface JsonPlannerOptions extends ChatEndpoint {
  model: string;
  jsonMode: boolean;
  repairRetries: number;
}

export class JsonPlanner implements Planner {
  readonly name: string;

  constructor(private readonly options: JsonPlannerOptions) {
    this.name = `qwen:${options.model}`;
  }

  async next(input: PlannerInput, signal: AbortSignal): Promise<PlannerTurn> {
    const messages: ChatMessage[] = [
      { role: "system", content: SYSTEM_PROMPT },
      { role: "user", content: userContent(input) },
    ];
    const usage: Usage = { input_tokens: 0, output_tokens: 0 };
    let lastError = "";
    for (let attempt = 0; attempt <= this.options.repairRetries; attempt++) {
      const reply = await chatCompletion(
        this.options,
        {
          model: this.options.model,
          messages,
          ...(this.options.jsonMode ? { response_format: { type: "json_object" as const } } : {}),
        },
        signal,
      );
      usage.input_tokens += reply.usage.input_tokens;
      usage.output_tokens += reply.usage.output_tokens;
      const parsed = parsePlannerAnswer(reply.content, input.screenshot);
      if (parsed.ok) {
        const { thought, progress, action } = parsed.answer;
        return { thought, progress: progress || action.intent, action, usage, planner: this.name };
      }
      lastError = parsed.error;
      messages.push({ role: "assistant", content: reply.content }, { role: "user", content: repairRequest(parsed.error) });
    }
    throw new AppError(
      "PLANNER_INVALID_OUTPUT",
      `The model's answer was still unusable after ${this.options.repairRetries} retries: ${lastError}`,
    );
  }
}
