// The browser toolset's file_upload: puts one of the person's attachments, named in `paths` as the
// message names it (never a path on any disk), into the file input a ref names, through the same
// hands as our own upload tool: the `upload` approval class, the same refusal of a name the message
// did not attach. Files API documents (`document_ids`) are not the person's attachments here.
import { z } from "zod";
import { BOTH, defineTool, failed, labelled, pageOf, type ToolOutcome } from "../tool.ts";
import { uploadInto } from "../upload.ts";
import { isGone, otherTab, ourRef, refTargetSchema, tabIdSchema } from "./member.ts";
import { goneMessage } from "./refs.ts";

export const fileUpload = defineTool({
  name: "file_upload",
  description:
    "Put a file the person attached to their message into a file-input element named by reference. `paths` holds the attachment's name exactly as the message gives it (e.g. cv.pdf), one file per call.",
  input: z.object({
    target: refTargetSchema,
    paths: z.array(z.string().min(1)).optional().describe("The name of one attachment of the person's message, e.g. [\"cv.pdf\"]."),
    document_ids: z.array(z.string()).optional().describe("Files API documents: not available in this browser."),
    tab_id: tabIdSchema,
  }),
  modes: BOTH,
  label: ({ paths }) => labelled("file_upload", (paths ?? []).join(", ")),
  async run({ target, paths, document_ids, tab_id }, ctx): Promise<ToolOutcome> {
    const refused = await otherTab(ctx, tab_id);
    if (refused) return refused;
    if (document_ids && document_ids.length > 0) {
      return failed("INVALID_ARGUMENTS", "Files API documents cannot be uploaded in this browser: put the name of a file the person attached to their message in `paths`.");
    }
    const [name, ...more] = paths ?? [];
    if (!name) return failed("INVALID_ARGUMENTS", "Name the file to upload in `paths`: the name of a file the person attached to their message.");
    if (more.length > 0) return failed("INVALID_ARGUMENTS", `Upload one file per call: call file_upload with ${JSON.stringify([name])}, then again for each other file.`);
    const resolved = await ourRef(ctx, target.ref);
    if (!resolved.ok) return failed("INVALID_TARGET", resolved.message);
    let located: Awaited<ReturnType<ReturnType<typeof pageOf>["locate"]>>;
    try {
      located = await pageOf(ctx).locate(resolved.ours);
    } catch (error) {
      if (isGone(error)) return failed("INVALID_TARGET", goneMessage(target.ref));
      throw error;
    }
    const outcome = await uploadInto(ctx, name, located.target);
    return outcome.ok ? { ...outcome, text: `Put ${name} into ${target.ref}.` } : outcome;
  },
  async replay({ paths }, [found], ctx) {
    return uploadInto(ctx, paths?.[0] ?? "", found?.target ?? null);
  },
});
