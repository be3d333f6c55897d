// The default planner (seed 000 §5.2): any OpenAI-compatible vision model answering one JSON
// object per request — the next action at each step, and `{on_target, dx, dy}` when a click's
// pointer is checked (PROTOCOL.md). An unusable answer goes back to the model with the reason, at
// most `repairRetries` times; then the task fails with that reason.
import type { Grid } from "../../perception/grids.ts";
import { askWithRepair, type Parsed } from "../openai-compatible/ask.ts";
import type { ChatEndpoint, ChatMessage } from "../openai-compatible/chat-completions.ts";
import type { Planner, PlannerCapabilities, PlannerInput, PlannerTurn, PointerCheck, PointerCheckInput } from "../planner.ts";
import { parsePlannerAnswer, parsePointerCheck } from "./parse.ts";
import { pointerCheckContent, repairRequest, systemPrompt, userContent } from "./prompt.ts";

export interface JsonPlannerOptions extends ChatEndpoint {
  model: string;
  jsonMode: boolean;
  repairRetries: number;
  verifyClicks?: PlannerCapabilities["verifyClicks"];
  /** Where the model's points lie (models/dialects.ts); pixels of the screenshot unless its name says otherwise. */
  grid: Grid;
}

export class JsonPlanner implements Planner {
  readonly name: string;

  constructor(private readonly options: JsonPlannerOptions) {
    this.name = `qwen:${options.model}`;
  }

  capabilities(): PlannerCapabilities {
    return {
      elements: false,
      imageSize: null,
      verifyClicks: this.options.verifyClicks ?? null,
      checkPointer: (input, signal) => this.checkPointer(input, signal),
    };
  }

  async next(input: PlannerInput, signal: AbortSignal): Promise<PlannerTurn> {
    const messages: ChatMessage[] = [
      { role: "system", content: systemPrompt(input.pageTools !== undefined) },
      { role: "user", content: userContent(input, this.options.grid) },
    ];
    const { value, usage } = await this.ask(messages, (text) => parsePlannerAnswer(text, input.screenshot, this.options.grid), signal);
    return { thought: value.thought, progress: value.progress || value.action.intent, action: value.action, usage, planner: this.name };
  }

  private async checkPointer(input: PointerCheckInput, signal: AbortSignal): Promise<PointerCheck> {
    const messages: ChatMessage[] = [{ role: "user", content: pointerCheckContent(input) }];
    const { value, usage } = await this.ask(messages, parsePointerCheck, signal);
    return { ...value, usage };
  }

  private ask<T>(messages: ChatMessage[], parse: (text: string) => Parsed<T>, signal: AbortSignal) {
    return askWithRepair({ ...this.options, repairRequest }, messages, parse, signal);
  }
}
