// readArtifact: reads a long text the task saved — a page's reader text over 256 KB, extracted data
// too long to show, whose id the model is told — by a range of characters, or finds where a word or phrase occurs in it, so a
// text too long for one look is still read in full. The same ranges as GET /api/tasks/:id/artifacts/:id.
import { z } from "zod";
import { BOTH, defineTool, failed, labelled } from "./tool.ts";

const MAX_LENGTH = 20_000;
const MAX_MATCHES = 20;
/** Characters shown on each side of a match. */
const AROUND = 120;

export const readArtifact = defineTool({
  name: "readArtifact",
  description:
    "Read a long text saved for this task (a page's reader text or extracted data too long to show, named by its artifact id): the characters from offset, or with search, where a word or phrase occurs (any case), each match with its offset and the text around it. Read further from a match's offset.",
  input: z.object({
    artifactId: z.string().min(1),
    offset: z.number().int().min(0).default(0).describe("the first character to read"),
    length: z.number().int().min(1).max(MAX_LENGTH).default(8_000).describe("how many characters to read"),
    search: z.string().min(1).max(200).optional().describe("a word or phrase to find, instead of reading a range"),
  }),
  modes: BOTH,
  looks: true,
  label: ({ artifactId, offset, search }) => labelled("readArtifact", search ? `"${search}" in ${artifactId}` : `${artifactId} from ${offset}`),
  async run({ artifactId, offset, length, search }, ctx) {
    const text = await ctx.readArtifact(artifactId);
    if (text === null) return failed("NOT_FOUND", `This task saved no artifact ${JSON.stringify(artifactId)}; use the id you were told the text was saved as.`);
    if (search !== undefined) {
      // The phrase is matched as written, never as a pattern: it is escaped.
      const matches = [...text.matchAll(new RegExp(search.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "giu"))].map((m) => m.index);
      const shown = matches.slice(0, MAX_MATCHES).map((at) => ({ offset: at, text: text.slice(Math.max(0, at - AROUND), at + search.length + AROUND) }));
      return { ok: true, data: { artifactId, search, totalChars: text.length, found: matches.length, matches: shown } };
    }
    if (offset > 0 && offset >= text.length) return failed("INVALID_ARGUMENTS", `offset ${offset} is past the end of the text, which has ${text.length} characters.`);
    const part = text.slice(offset, offset + length);
    return { ok: true, data: { artifactId, offset, length: part.length, totalChars: text.length, more: offset + part.length < text.length }, text: part };
  },
});
