// What kind of file some bytes are, read from the bytes themselves (their magic numbers), never
// from a name or a server's Content-Type: a received file is served as what it is.

const SIGNATURES: readonly { type: string; bytes: readonly number[] }[] = [
  { type: "application/pdf", bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] }, // %PDF-
  { type: "image/png", bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: "image/jpeg", bytes: [0xff, 0xd8, 0xff] },
  { type: "image/gif", bytes: [0x47, 0x49, 0x46, 0x38] }, // GIF8
  { type: "application/zip", bytes: [0x50, 0x4b, 0x03, 0x04] },
  { type: "application/zip", bytes: [0x50, 0x4b, 0x05, 0x06] }, // an empty archive
];

/** The most of a file read to tell whether it is text. */
export const SNIFF_BYTES = 4_096;

/**
 * The MIME type of a file from its first bytes (up to {@link SNIFF_BYTES}): PDF, PNG, JPEG, GIF,
 * ZIP, plain text (valid UTF-8 without control characters other than whitespace), else
 * `application/octet-stream`.
 */
export function sniffMimeType(head: Uint8Array): string {
  const known = SIGNATURES.find(({ bytes }) => bytes.every((byte, i) => head[i] === byte));
  if (known) return known.type;
  return head.length > 0 && isText(head) ? "text/plain" : "application/octet-stream";
}

function isText(head: Uint8Array): boolean {
  // A multi-byte character cut at the end of the sample is still text.
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(head.subarray(0, trimmedEnd(head)));
  } catch {
    return false;
  }
  return !/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text);
}

/** Where the sample ends without the start of a UTF-8 sequence it cut. */
function trimmedEnd(head: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, head.length); back++) {
    const byte = head[head.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const needs = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needs > back ? head.length - back : head.length;
  }
  return head.length;
}
