// The person's files as a model over an OpenAI-compatible endpoint (Chat Completions) is given
// them with its first look: the shared reading (models/attachments.ts) as `text` and `image_url` parts.
import { attachmentParts, type AttachedFile } from "../attachments.ts";
import type { ContentPart } from "./chat-completions.ts";

/**
 * The attachments' parts, numbered from 1, to go before the task's text and screenshot. `images`:
 * false for a model that grounds its points in the one image it is shown (UI-TARS, OpenCUA), which
 * gets attached images by name only.
 */
export function attachedParts(files: readonly AttachedFile[], { images = true } = {}): ContentPart[] {
  return attachmentParts(files, { images }).map((part): ContentPart =>
    part.type === "text" ? { type: "text", text: part.text } : { type: "image_url", image_url: { url: `data:${part.mimeType};base64,${part.data}` } },
  );
}
