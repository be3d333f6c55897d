// fillForm: several fields of a form in one call (dom mode, seed 001 §12.2, §13.2). The model maps
// every field to an element of one fresh view of the page (the fields' words matched first), then
// each is filled in order.
import { z } from "zod";
import type { ElementTarget, RefAction } from "../computers/computer.ts";
import { CHOOSER_SYSTEM, CHOOSER_TOKENS, choiceSchema, refAction, replayOnElements } from "./act.ts";
import { askJson, withSchema } from "./ask-model.ts";
import { actOnElement, defineTool, failed, pageOf } from "./tool.ts";

export const fillForm = defineTool({
  name: "fillForm",
  description:
    "Fill several form fields at once. Each field: action names the field as a person sees it (\"the Email field\", \"the Country select\", \"the I accept checkbox\"), value is what to enter (for a checkbox: \"true\" or \"false\"). Does not submit.",
  input: z.object({ fields: z.array(z.object({ action: z.string().min(1), value: z.string() })).min(1).max(50) }),
  modes: ["dom"],
  label: ({ fields }) => `fillForm (${fields.length} ${fields.length === 1 ? "field" : "fields"})`,
  async run({ fields }, ctx) {
    const view = await pageOf(ctx).view({ prefer: fields.map((f) => f.action).join(" "), budget: CHOOSER_TOKENS + 100 * fields.length });
    const list = fields.map((f, i) => `${i + 1}. ${f.action} = ${JSON.stringify(f.value)}`).join("\n");
    const question = `${view.text}\n\nFields to fill, in order:\n${list}\n\nAnswer {"fields": [one choice per field, in the same order]}; use "fill" for text fields, "select" for selects, "check"/"uncheck" for checkboxes and "click" for radio buttons.`;
    const answer = await askJson(
      ctx,
      CHOOSER_SYSTEM,
      question,
      withSchema(z.object({ fields: z.array(choiceSchema).length(fields.length, `must have ${fields.length} choices, one per field`) })),
    );
    if (!answer.ok) return failed("INVALID_TARGET", `The fields could not be matched to elements: ${answer.error}`);
    const targets: { target: ElementTarget; action: RefAction }[] = [];
    const actions: { action: string; ref: string; method: string; locator: string | null }[] = [];
    for (const [i, choice] of answer.value.fields.entries()) {
      ctx.progress.check();
      const what = refAction(choice);
      if (typeof what === "string") return { ...failed("INVALID_TARGET", `${fields[i]!.action}: ${what}`), data: { actions }, targets };
      const acted = await actOnElement(ctx, { ref: choice.ref }, what, fields[i]!.action);
      if (!acted.ok) return { ...acted.outcome, data: { actions }, targets };
      targets.push({ target: acted.target, action: what });
      actions.push({ action: fields[i]!.action, ref: choice.ref, method: choice.method, locator: acted.target.locator });
    }
    return { ok: true, data: { success: true, actions }, targets };
  },
  replay: (input, found, ctx) => replayOnElements(input.fields.map((f) => f.action).join(", "), found, ctx),
  heal: (input) => ({ name: "fillForm", input }),
});
