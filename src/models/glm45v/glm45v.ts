// GLM-4.5V in its own dialect, over any OpenAI-compatible endpoint (Zhipu's, vLLM, SGLang): the
// published desktop prompt in one user message, one `action(param='...')` an answer on a 0–999
// grid, and the Memory it keeps, given back each round. An unusable answer goes back with the
// reason (askWithRepair); nothing it writes is run.
import type { Grid } from "../../perception/grids.ts";
import { askWithRepair } from "../openai-compatible/ask.ts";
import { attachedParts } from "../openai-compatible/attachments.ts";
import type { ChatEndpoint, ChatMessage } from "../openai-compatible/chat-completions.ts";
import { GaveUp, taskText, windowLine, type Planner, type PlannerCapabilities, type PlannerInput, type PlannerTurn } from "../planner.ts";
import { parseGlm } from "./parse.ts";
import { glmPromptText, repairRequest } from "./prompt.ts";

export interface GlmOptions extends ChatEndpoint {
  model: string;
  repairRetries: number;
  verifyClicks?: PlannerCapabilities["verifyClicks"];
  /** 0–999 unless MODEL_GRID says otherwise. */
  grid: Grid;
}

export class GlmPlanner implements Planner {
  readonly name: string;
  /** What the model asked to remember, as it wrote it. */
  private memory = "[]";

  constructor(private readonly options: GlmOptions) {
    this.name = `qwen:${options.model}`;
  }

  capabilities(): PlannerCapabilities {
    return { elements: false, imageSize: null, verifyClicks: this.options.verifyClicks ?? null, checkPointer: null };
  }

  async next(input: PlannerInput, signal: AbortSignal): Promise<PlannerTurn> {
    const image = { width: input.screenshot.width, height: input.screenshot.height };
    const platform = input.window ? `Desktop\n${windowLine(input.window)}` : `Web browser${input.url ? `\nCurrent URL: ${input.url}` : ""}`;
    const messages: ChatMessage[] = [
      {
        role: "user",
        content: [
          ...attachedParts(input.attachments, { images: false }),
          { type: "text", text: glmPromptText(taskText(input).replace(/^Task: /, ""), platform, input.history, this.memory) },
          { type: "image_url", image_url: { url: `data:${input.screenshot.mimeType};base64,${input.screenshot.data.toString("base64")}` } },
        ],
      },
    ];
    const { value, usage } = await askWithRepair({ ...this.options, jsonMode: false, repairRequest }, messages, (text) => parseGlm(text, image, this.options.grid), signal);
    this.memory = value.memory;
    const progress = value.explanation.split("\n")[0] || value.call;
    if (value.action === null) throw new GaveUp(`I could not finish the task. ${value.explanation}`.trim(), { thought: value.explanation, progress, usage, planner: this.name });
    return { thought: value.explanation, progress, action: value.action, usage, planner: this.name };
  }
}
