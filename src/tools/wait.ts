// wait: for a time, for the page to finish loading, or for a text to appear (seed 001 §9).
import { z } from "zod";
import { raceAbort } from "../core/abort.ts";
import { ANY_COMPUTER, BOTH, defineTool, labelled, pageOf } from "./tool.ts";

const MAX_MS = 30_000;

export const wait = defineTool({
  name: "wait",
  description:
    "Wait: for timeMs milliseconds; in a browser, with load: true, until the page has finished loading; with textIncludes, until that text appears on the page. timeMs is then the longest wait (10 s by default).",
  input: z.object({
    timeMs: z.number().int().min(0).max(MAX_MS).optional(),
    load: z.boolean().optional(),
    textIncludes: z.string().min(1).optional(),
  }),
  modes: BOTH,
  computers: ANY_COMPUTER,
  label: ({ timeMs, load, textIncludes }) => (textIncludes ? labelled("wait", textIncludes) : load ? "wait load" : `wait ${timeMs ?? 1000} ms`),
  async run({ timeMs, load, textIncludes }, ctx) {
    const started = Date.now();
    if (!load && !textIncludes) {
      await ctx.progress.sleep(timeMs ?? 1000);
      return { ok: true, data: { success: true, waited: Date.now() - started } };
    }
    const limit = timeMs ?? 10_000;
    // Only looking, these waits may be cut short on Stop: nothing of them acts on the page.
    const { signal } = ctx.progress;
    const loaded = load ? await raceAbort(pageOf(ctx).waitForLoad(limit), signal) : true;
    const found = textIncludes ? await raceAbort(pageOf(ctx).waitForText(textIncludes, Math.max(0, limit - (Date.now() - started))), signal) : true;
    const waited = Date.now() - started;
    if (loaded && found) return { ok: true, data: { success: true, waited } };
    const what = !loaded ? "the page had not finished loading" : `"${textIncludes}" did not appear`;
    return { ok: false, error: { code: "WAIT_TIMEOUT", message: `After ${waited} ms ${what}.` }, data: { waited } };
  },
});
