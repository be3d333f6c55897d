// The person's message as an AG-UI run brings it: the last message, which must be theirs, read as
// the chat's send body reads a message — its text parts joined, and its images and documents given
// inline (a `data` source, or a `data:` URL) as the message's attachments, named by their
// metadata's file name where they carry one. What the server cannot take is refused with the part
// it is, never dropped: a file a provider keeps (its handle means nothing here), an address to
// fetch (the server fetches nothing a request names), audio and video.
import type { ContentPart, RunAgentInput } from "@ag-ui/core";
import { AppError } from "../../core/errors.ts";
import type { Attachment } from "../../protocol/index.ts";

export interface PersonMessage {
  text: string;
  attachments: Attachment[];
}

export function lastPersonMessage(input: RunAgentInput): PersonMessage {
  const last = input.messages.at(-1);
  if (last?.role !== "user") throw invalid("the last message must be the person's (role user): their question or task.");
  if (typeof last.content === "string") return { text: last.content, attachments: [] };
  const texts: string[] = [];
  const attachments: Attachment[] = [];
  for (const [index, part] of last.content.entries()) {
    if (part.type === "text") texts.push(part.text);
    else attachments.push(attachmentOf(part, index, attachments.length + 1));
  }
  return { text: texts.join("\n"), attachments };
}

function attachmentOf(part: Exclude<ContentPart, { type: "text" }>, index: number, ordinal: number): Attachment {
  const where = `content[${index}] (${part.type})`;
  if (part.type !== "image" && part.type !== "document") throw invalid(`${where}: only text, images and documents are read; send the ${part.type} as a file in a document part if the task needs it.`);
  const { source } = part;
  let dataUrl: string;
  let mimeType: string;
  if (source.type === "data") {
    mimeType = source.mimeType;
    dataUrl = `data:${mimeType};base64,${source.value}`;
  } else if (source.type === "url" && source.value.startsWith("data:")) {
    dataUrl = source.value;
    mimeType = source.mimeType ?? /^data:([^;,]+)/.exec(source.value)?.[1] ?? "application/octet-stream";
  } else if (source.type === "url") {
    throw invalid(`${where}: the server fetches no address a message names; give the file's bytes inline (a data source).`);
  } else {
    throw invalid(`${where}: a provider's file handle cannot be read here; give the file's bytes inline (a data source).`);
  }
  return { name: nameOf(part.metadata, part.type, ordinal, mimeType), mime_type: mimeType, data_url: dataUrl };
}

/** The part's file name from its metadata (`filename` or `name`), else its kind, place and type: `image-1.png`. */
function nameOf(metadata: unknown, kind: string, ordinal: number, mimeType: string): string {
  const given = metadata && typeof metadata === "object" ? ((metadata as Record<string, unknown>).filename ?? (metadata as Record<string, unknown>).name) : undefined;
  if (typeof given === "string" && given.trim()) return given.trim();
  const extension = /^[a-z]+\/([a-z0-9.+-]+)$/i.exec(mimeType)?.[1]?.replace(/^(svg)\+xml$/, "$1").replace(/^plain$/, "txt").replace(/^jpeg$/, "jpg") ?? "bin";
  return `${kind}-${ordinal}.${extension}`;
}

const invalid = (message: string) => new AppError("INVALID_BODY", `Invalid body: messages: ${message}`);
