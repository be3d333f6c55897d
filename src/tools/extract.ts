// extract: structured data from the page for an instruction, shaped by a JSON Schema (seed 001
// §12.2). The schema is data, read with zod's JSON Schema reader — never code to evaluate — and
// may not hold regular expressions, which would run on the server. Data too long for the model's
// context to keep whole is saved as an artifact, read back with readArtifact and the artifacts route.
import { z } from "zod";
import { keptWithin } from "../core/cut-text.ts";
import { askJson } from "./ask-model.ts";
import { BOTH, defineTool, failed, labelled, pageOf } from "./tool.ts";

/** The reader text the model gets, in characters, cut at a line; the page's outline gets a budget of tokens. */
const TEXT_LIMIT = 40_000;
const VIEW_TOKENS = 6_000;
/**
 * Extracted data longer than this, as JSON, is saved as an artifact: the tool agent's context keeps
 * 10,000 characters of any result (agent/tool-context.ts), and the data would be cut there unseen.
 */
const RESULT_INLINE_CHARS = 8_000;
/** How much of saved data the result shows, so the model sees its shape. */
const PREVIEW_CHARS = 1_000;

const SYSTEM = [
  "You extract data from a web page for a browser agent, from the page's text and an outline of its elements.",
  'Answer with one JSON object {"result": …} where result follows the JSON Schema given, using only what the page says.',
].join("\n");

export const extract = defineTool({
  name: "extract",
  description:
    "Extract structured data from the current page: an instruction, and optionally a JSON Schema the result must follow (e.g. {\"type\":\"object\",\"properties\":{\"price\":{\"type\":\"number\"}}}). Use it only when you need structured data, not to read the page.",
  input: z.object({
    instruction: z.string().min(1),
    schema: z.record(z.string(), z.unknown()).optional().describe("a JSON Schema object for the result"),
  }),
  modes: BOTH,
  looks: true,
  label: ({ instruction }) => labelled("extract", instruction),
  async run({ instruction, schema }, ctx) {
    let shape: z.ZodType = z.unknown();
    if (schema && /"pattern"\s*:\s*"|"patternProperties"\s*:/.test(JSON.stringify(schema))) {
      // A regular expression the model wrote would run on the server; a bad one would stall it.
      return failed("INVALID_ARGUMENTS", "schema may not use pattern or patternProperties; describe the format in the instruction instead");
    }
    if (schema) {
      try {
        shape = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
      } catch (error) {
        return failed("INVALID_ARGUMENTS", `schema is not a JSON Schema this tool can read: ${(error as Error).message}`);
      }
    }
    const [article, view] = await Promise.all([pageOf(ctx).readability(ctx.saveArtifact), pageOf(ctx).view({ prefer: instruction, budget: VIEW_TOKENS })]);
    const page = [
      article.text ? `Text${article.title ? ` of "${article.title}"` : ""}:\n${cutAtLine(article.text, TEXT_LIMIT)}` : "",
      `Outline of the page's elements:\n${view.text}`,
    ].join("\n\n");
    const question = `${page}\n\nInstruction: ${instruction}${schema ? `\n\nJSON Schema of result:\n${JSON.stringify(schema)}` : ""}`;
    const answer = await askJson(
      ctx,
      SYSTEM,
      question,
      (value) => {
        const result = z.object({ result: shape }).safeParse(value);
        if (result.success) return { ok: true, value: result.data.result };
        const issue = result.error.issues[0];
        return { ok: false, error: `${issue?.path.join(".") || "result"}: ${issue?.message}` };
      },
    );
    if (!answer.ok) return failed("SCHEMA_VALIDATION_FAILED", `The extracted data does not follow the schema: ${answer.error}`);
    if (JSON.stringify(answer.value).length <= RESULT_INLINE_CHARS) return { ok: true, data: { success: true, result: answer.value } };
    const saved = JSON.stringify(answer.value, null, 2);
    const artifactId = await ctx.saveArtifact(saved);
    return {
      ok: true,
      data: { success: true, artifactId, totalChars: saved.length },
      text: `The extracted data is ${saved.length} characters of JSON, too long to show whole: it is saved as artifact ${artifactId}. Read it in parts, or search it, with readArtifact. It begins:\n${saved.slice(0, PREVIEW_CHARS)}`,
    };
  },
});

/** The text cut to `max` characters at a line break, saying how much was left. */
function cutAtLine(text: string, max: number): string {
  const kept = keptWithin(text, max);
  return kept === text ? text : `${kept}\n[${text.length - kept.length} more characters of text not shown]`;
}
