// upload: puts one of the message's attachments, named as the person sent it (never a path), into
// a page's file input by its ref, or, without a ref, into the file chooser the page opened (a click
// on its button) or the desktop's open file dialog. Through the hands, so the approval policy
// judges where the file goes; a replay puts it into the recorded input where it is now.
import { z } from "zod";
import type { ElementTarget } from "../computers/computer.ts";
import type { Point } from "../perception/coordinates.ts";
import type { ActionOf } from "../protocol/index.ts";
import { centerOf, defineTool, failed, labelled, pageOf, type ToolContext, type ToolOutcome } from "./tool.ts";

export const upload = defineTool({
  name: "upload",
  description:
    "Put a file the person attached to their message into a file input, by the attachment's name. Give the ref of the file input (or of the button or label that stands for it) from the latest ARIA tree; without a ref, the file goes into the file chooser the page has open (click its upload button first) or the desktop's open file dialog.",
  input: z.object({
    name: z.string().min(1).describe("the attachment's name, exactly as the message gives it, e.g. cv.pdf"),
    ref: z.string().optional().describe("the file input's ref in the latest ARIA tree; leave it out to fill the file chooser that is open"),
  }),
  modes: ["dom", "hybrid"],
  computers: ["browser", "desktop", "extension"],
  label: ({ name }) => labelled("upload", name),
  async run({ name, ref }, ctx) {
    if (!ref) return uploadInto(ctx, name, null);
    const { target } = await pageOf(ctx).locate(ref);
    return uploadInto(ctx, name, target);
  },
  async replay({ name }, [found], ctx) {
    return uploadInto(ctx, name, found?.target ?? null);
  },
});

/**
 * Uploads an attachment into the element's file input at its centre, or into the chooser open when
 * there is no element, through the hands. Claude's browser toolset's `file_upload` comes here too.
 */
export async function uploadInto(ctx: ToolContext, name: string, target: ElementTarget | null): Promise<ToolOutcome> {
  const at: Point | undefined = target ? centerOf(target) : undefined;
  if (target && !at) return failed("INVALID_TARGET", `The file input has no box on the page to put "${name}" into.`);
  const intent = `upload "${name}"`;
  const action: ActionOf<"upload"> = { type: "upload", args: { name, ...at }, intent, requires_verification: false };
  // Finding the element may have scrolled the page: the effect is measured from the screen as it is now.
  const performed = await ctx.perform({ kind: "action", action, intent, ...(target ? { element: target, fresh: true } : {}) });
  const changed = performed.kind === "acted" && performed.effect?.changed === true;
  return { ok: true, data: { success: true, name, changed }, action, ...(at ? { at } : {}), targets: target ? [{ target, action: null }] : [] };
}
