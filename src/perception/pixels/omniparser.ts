// A client of a real OmniParser server (microsoft/OmniParser, omnitool/omniparserserver): the
// screen goes as a base64 PNG in `POST /parse/`; the answer's `parsed_content_list` holds each
// element's type (`text` or `icon`), box as ratios of the image [x1, y1, x2, y2], whether it is
// interactive, and its text or icon caption. The boxes become pixels of the image that was sent.
import sharp from "sharp";
import { z } from "zod";
import { AppError } from "../../core/errors.ts";
import type { Detection, DetectionKind } from "./detection.ts";
import type { Raster } from "./raster.ts";

const parsedElementSchema = z.object({
  type: z.string(),
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  interactivity: z.boolean().default(false),
  content: z.string().nullable().default(null),
});
const parseReplySchema = z.object({ parsed_content_list: z.array(parsedElementSchema) });
type ParsedElement = z.infer<typeof parsedElementSchema>;

export interface OmniParserOptions {
  /** The server's address, e.g. `http://127.0.0.1:8000`; `/parse/` is appended. */
  url: string;
  timeoutMs: number;
}

/** The screen's elements as OmniParser sees them, interactive ones first. */
export async function omniparse(image: Raster, options: OmniParserOptions): Promise<Detection[]> {
  const png = await sharp(image.rgb, { raw: { width: image.width, height: image.height, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer();
  const endpoint = new URL("parse/", options.url.endsWith("/") ? options.url : `${options.url}/`);
  const timeout = AbortSignal.timeout(options.timeoutMs);
  let reply: Response;
  try {
    reply = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ base64_image: png.toString("base64") }),
      signal: timeout,
    });
  } catch (error) {
    if (timeout.aborted) throw new AppError("MODEL_TIMEOUT", `OmniParser at ${endpoint} did not answer within ${options.timeoutMs} ms (OMNIPARSER_URL).`, { retryable: true });
    throw new AppError("MODEL_UNREACHABLE", `OmniParser at ${endpoint} could not be reached (OMNIPARSER_URL): ${(error as Error).message}`, { retryable: true });
  }
  if (!reply.ok) {
    const body = (await reply.text().catch(() => "")).slice(0, 200);
    throw new AppError("MODEL_HTTP_ERROR", `OmniParser at ${endpoint} answered HTTP ${reply.status}${body ? `: ${body}` : ""}`, { retryable: reply.status >= 500 });
  }
  const parsed = parseReplySchema.safeParse(await reply.json().catch(() => null));
  if (!parsed.success) throw new AppError("MODEL_HTTP_ERROR", `OmniParser at ${endpoint} answered without a valid parsed_content_list: ${parsed.error.issues[0]?.message}`);
  const detections = parsed.data.parsed_content_list.map((e) => ({ interactive: e.interactivity, detection: toDetection(e, image) }));
  return [...detections.filter((d) => d.interactive), ...detections.filter((d) => !d.interactive)].map((d) => d.detection);
}

/** The ratio box in the image's pixels, and a kind as seed 002 §2.4 classifies OmniParser's types. */
function toDetection(element: ParsedElement, image: Raster): Detection {
  const [x1, y1, x2, y2] = element.bbox.map((v) => Math.min(1, Math.max(0, v))) as [number, number, number, number];
  const box = { x: x1 * image.width, y: y1 * image.height, width: Math.max(0, x2 - x1) * image.width, height: Math.max(0, y2 - y1) * image.height };
  return { kind: kindOf(element), label: (element.content ?? "").trim(), box };
}

function kindOf(element: ParsedElement): DetectionKind {
  const type = element.type.toLowerCase();
  if (type.includes("button")) return "button";
  if (type.includes("input") || (type.includes("text") && element.interactivity)) return "textbox";
  if (type.includes("checkbox")) return "checkbox";
  if (type.includes("icon") || type.includes("image")) return "icon";
  return element.interactivity ? "button" : "text";
}
