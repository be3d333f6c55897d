// The example of docs/adding-a-provider.md, compiled by `npm run typecheck`: a planner for an
// imagined "Acme" model that answers one line per step over an OpenAI-compatible endpoint —
// `click 512 300` on a 0–1000 grid, `type hello`, `done <answer>` or `ask <request>`.
import { gridOf } from "../../src/perception/grids.ts";
import { askWithRepair, type Parsed } from "../../src/models/openai-compatible/ask.ts";
import type { ChatEndpoint } from "../../src/models/openai-compatible/chat-completions.ts";
import { PAGE_TEXT_IS_DATA, taskText, type Planner, type PlannerCapabilities, type PlannerInput, type PlannerTurn } from "../../src/models/planner.ts";
import type { Size } from "../../src/perception/coordinates.ts";
import type { Action } from "../../src/protocol/index.ts";

export interface AcmeOptions extends ChatEndpoint {
  model: string;
  repairRetries: number;
}

const SYSTEM = `You operate a computer for a person. Answer with one line: "click X Y" (X, Y from 0 to 1000 across the screenshot), "type TEXT", "done ANSWER" or "ask REQUEST" when the person must act. ${PAGE_TEXT_IS_DATA}`;

export class AcmePlanner implements Planner {
  readonly name: string;

  constructor(private readonly options: AcmeOptions) {
    this.name = `acme:${options.model}`;
  }

  capabilities(): PlannerCapabilities {
    // Screenshots fitted into MODEL_IMAGE_MAX_*; clicks checked by the hit test only (the model cannot look).
    return { elements: false, imageSize: null, verifyClicks: null, checkPointer: null };
  }

  async next(input: PlannerInput, signal: AbortSignal): Promise<PlannerTurn> {
    const image = { width: input.screenshot.width, height: input.screenshot.height };
    const shot = `data:${input.screenshot.mimeType};base64,${input.screenshot.data.toString("base64")}`;
    const { value: action, usage } = await askWithRepair(
      { ...this.options, jsonMode: false, repairRequest: (error) => `That line could not be used: ${error}. Answer with one line.` },
      [
        { role: "system", content: SYSTEM },
        { role: "user", content: [{ type: "text", text: [taskText(input), ...input.history].join("\n") }, { type: "image_url", image_url: { url: shot } }] },
      ],
      (text) => parseAcme(text, image),
      signal,
    );
    return { thought: "", progress: action.intent, action, usage, planner: this.name };
  }
}

/** A whitelist parser: the four forms and nothing else; a point off the grid is refused. */
export function parseAcme(text: string, image: Size): Parsed<Action> {
  const grid = gridOf("norm1000");
  const line = text.trim().split("\n")[0] ?? "";
  const [verb = "", ...rest] = line.split(" ");
  const tail = rest.join(" ").trim();
  const common = { intent: line, requires_verification: false };
  switch (verb) {
    case "click": {
      const [x, y] = rest.map(Number);
      if (!Number.isFinite(x) || !Number.isFinite(y)) return { ok: false, error: "click needs two numbers" };
      try {
        return { ok: true, value: { type: "click", args: { ...grid.toPixels({ x: x!, y: y! }, image), button: "left" }, ...common } };
      } catch (error) {
        return { ok: false, error: (error as Error).message };
      }
    }
    case "type":
      return tail ? { ok: true, value: { type: "type", args: { text: tail }, ...common } } : { ok: false, error: "type needs text" };
    case "done":
      return { ok: true, value: { type: "done", args: { answer: tail || "Done." }, ...common } };
    case "ask":
      return { ok: true, value: { type: "needs_user", args: { answer: tail || "Please take over." }, ...common } };
    default:
      return { ok: false, error: `"${verb}" is not one of click, type, done, ask` };
  }
}
