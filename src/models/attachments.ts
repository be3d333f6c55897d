// The files a person attached to a task as every model is given them, read once per task: images
// as images; text, CSV, JSON and code as text; a PDF as its extracted text with its page count;
// anything else, and whatever does not fit the budget (MODEL_ATTACHMENTS_KB) or cannot be read, by
// name with why. Each adapter renders the reading in its own wire format from `attachmentParts`.
import { cutNoted } from "../core/cut-text.ts";
import { decodeDataUrl } from "../core/data-url.ts";
import type { Attachment } from "../protocol/index.ts";
import { pdfText } from "./pdf-text.ts";

export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

export type AttachedFile =
  | { type: "image"; name: string; mimeType: ImageType; /** Base64, without a data: prefix. */ data: string; bytes: number }
  /** A text file, or a PDF's text (`pages` set), cut where the budget or the per-file cap ends it. */
  | { type: "text"; name: string; mimeType: string; text: string; pages: number | null }
  /** A file the model is only told of, with why it does not see it. */
  | { type: "named"; name: string; mimeType: string; why: string };

/** How a model is given a file: text, or an image after its label. */
export type AttachmentPart = { type: "text"; text: string } | { type: "image"; mimeType: ImageType; data: string };

/**
 * The most of one file's text a model reads (about 25,000 tokens), whatever the budget: a longer
 * one would crowd the task and the screen out of the model's context.
 */
export const MAX_FILE_TEXT_CHARS = 100_000;

/** Reads every attachment in order; a file that does not fit what is left of `budgetBytes` is named. */
export async function readAttachments(attachments: readonly Attachment[], budgetBytes: number): Promise<AttachedFile[]> {
  const files: AttachedFile[] = [];
  let left = budgetBytes;
  for (const attachment of attachments) {
    const file = fitted(await readOne(attachment), left, budgetBytes);
    left -= sentBytes(file);
    files.push(file);
  }
  return files;
}

/** The files as parts, numbered from 1: each file's label, then its image or text. `images: false` names images instead. */
export function attachmentParts(files: readonly AttachedFile[], { images = true } = {}): AttachmentPart[] {
  return files.flatMap((file, i) => fileParts(file, i + 1, { images }));
}

/** One file as parts, as the `n`th attachment. */
export function fileParts(file: AttachedFile, n: number, { images = true } = {}): AttachmentPart[] {
  const label = fileLabel(file, n);
  switch (file.type) {
    case "image":
      if (!images) return [{ type: "text", text: `${label}: an image, not shown here (the screen is the only image this model takes).` }];
      return [{ type: "text", text: `${label}, the image below:` }, { type: "image", mimeType: file.mimeType, data: file.data }];
    case "text":
      return [{ type: "text", text: `${label}:\n${file.text}` }];
    case "named":
      return [{ type: "text", text: `${label}: ${file.why}` }];
  }
}

/** `Attachment 2: report.pdf (a PDF of 3 pages)`, as the model reads it before the file. */
export function fileLabel(file: AttachedFile, n: number): string {
  const what = file.type === "text" && file.pages !== null ? `a PDF of ${file.pages} page${file.pages === 1 ? "" : "s"}` : file.mimeType;
  return `Attachment ${n}: ${file.name} (${what})`;
}

/** An image as a named file, for a model that takes no image besides the screen, or none at all. */
export function withoutImages(files: readonly AttachedFile[]): AttachedFile[] {
  return files.map((file) => (file.type === "image" ? { type: "named", name: file.name, mimeType: file.mimeType, why: "an image, not shown here: this model takes no attached images." } : file));
}

async function readOne(attachment: Attachment): Promise<AttachedFile> {
  const { name } = attachment;
  const decoded = decodeDataUrl(attachment.data_url);
  if (!decoded) return { type: "named", name, mimeType: attachment.mime_type, why: "could not be read: its data is not a valid data: URL." };
  const { data } = decoded;
  const image = imageType(data);
  if (image) return { type: "image", name, mimeType: image, data: data.toString("base64"), bytes: data.length };
  if (isPdf(data)) {
    try {
      const pdf = await pdfText(data);
      const text = pdf.texts.map((page, i) => `[Page ${i + 1}]\n${page.trim()}`).join("\n\n");
      return { type: "text", name, mimeType: "application/pdf", text: cutNoted(text, MAX_FILE_TEXT_CHARS), pages: pdf.pages };
    } catch (error) {
      return { type: "named", name, mimeType: "application/pdf", why: `could not be read as a PDF (${error instanceof Error ? error.message : String(error)}); it may be damaged or locked with a password.` };
    }
  }
  const text = utf8Text(data);
  if (text !== null) return { type: "text", name, mimeType: decoded.mimeType, text: cutNoted(text, MAX_FILE_TEXT_CHARS), pages: null };
  return { type: "named", name, mimeType: attachment.mime_type, why: "not shown: a model reads images, text (CSV, JSON, code) and PDFs, and this file is none of them." };
}

/** Within what is left of the budget, a file is sent whole; a text is cut to what is left; else it is named. */
function fitted(file: AttachedFile, left: number, budget: number): AttachedFile {
  const bytes = sentBytes(file);
  if (bytes <= left) return file;
  const over = `too large for the model: ${size(bytes)}, where ${size(Math.max(0, left))} is left of the ${size(budget)} the attachments may take (MODEL_ATTACHMENTS_KB).`;
  if (file.type !== "text" || left < MIN_TEXT_BYTES) return { type: "named", name: file.name, mimeType: file.mimeType, why: over };
  const kept = Buffer.from(file.text, "utf8").subarray(0, left - CUT_NOTE_BYTES).toString("utf8").replace(/\uFFFD$/, "");
  return { ...file, text: `${kept}\n[… cut here: the text is ${size(bytes)} and only ${size(left)} of the attachments' budget was left (MODEL_ATTACHMENTS_KB).]` };
}

/** A text cut shorter than this is not worth sending: the file is named instead. */
const MIN_TEXT_BYTES = 1024;
/** Room kept for the note that says where a text was cut. */
const CUT_NOTE_BYTES = 160;

function sentBytes(file: AttachedFile): number {
  switch (file.type) {
    case "image":
      return file.bytes;
    case "text":
      return Buffer.byteLength(file.text, "utf8");
    case "named":
      return 0;
  }
}

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/** The image type by the file's first bytes, whatever name or type it came with. */
function imageType(data: Buffer): ImageType | null {
  if (data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "image/png";
  if (data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return "image/jpeg";
  if (data.subarray(0, 6).toString("latin1") === "GIF87a" || data.subarray(0, 6).toString("latin1") === "GIF89a") return "image/gif";
  if (data.subarray(0, 4).toString("latin1") === "RIFF" && data.subarray(8, 12).toString("latin1") === "WEBP") return "image/webp";
  return null;
}

/** A PDF starts with `%PDF-` within its first kilobyte (some writers put bytes before it). */
function isPdf(data: Buffer): boolean {
  return data.subarray(0, 1024).includes("%PDF-");
}

/** The file as text when it is valid UTF-8 without the control characters binary files are full of. */
function utf8Text(data: Buffer): string | null {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch {
    return null;
  }
  return /[\u0000-\u0008\u000e-\u001a\u001c-\u001f]/.test(text) ? null : text.replace(/^\uFEFF/, "");
}
