// The files a person attached to a task, as a vision model over an OpenAI-compatible endpoint is
// given them with its first look: images as images, text files as text, other files by name.
import { decodeDataUrl } from "../../core/data-url.ts";
import type { Attachment } from "../../protocol/index.ts";
import type { ContentPart } from "./chat-completions.ts";

/**
 * The attachments' parts, numbered from 1, to go before the task's text and screenshot. `images`:
 * false for a model that grounds its points in the one image it is shown (UI-TARS, OpenCUA), which
 * gets attached images by name only.
 */
export function attachedParts(attachments: readonly Attachment[], { images = true } = {}): ContentPart[] {
  return attachments.flatMap((attachment, i) => attachmentParts(attachment, i + 1, images));
}

const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"];
const MAX_ATTACHED_TEXT = 10_000;

/** Images go to the model as images, text files as text; other files are named only. */
function attachmentParts(attachment: Attachment, n: number, images: boolean): ContentPart[] {
  const label = `Attachment ${n}: ${attachment.name} (${attachment.mime_type})`;
  const decoded = decodeDataUrl(attachment.data_url);
  if (decoded && IMAGE_TYPES.includes(decoded.mimeType)) {
    if (!images) return [{ type: "text", text: `${label}: an image, not shown here (the screenshot is the only image).` }];
    return [
      { type: "text", text: `${label}, the image below:` },
      { type: "image_url", image_url: { url: attachment.data_url } },
    ];
  }
  if (decoded && (decoded.mimeType.startsWith("text/") || /json|xml|csv|yaml/.test(decoded.mimeType))) {
    const text = decoded.data.toString("utf8");
    const shown = text.length > MAX_ATTACHED_TEXT ? `${text.slice(0, MAX_ATTACHED_TEXT)}\n[… ${text.length - MAX_ATTACHED_TEXT} more characters]` : text;
    return [{ type: "text", text: `${label}:\n${shown}` }];
  }
  return [{ type: "text", text: `${label}: not readable here.` }];
}
