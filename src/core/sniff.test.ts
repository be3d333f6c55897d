import { describe, expect, it } from "vitest";
import { sniffMimeType } from "./sniff.ts";

const bytes = (...values: number[]) => Uint8Array.from(values);

describe("a received file's type, read from its bytes", () => {
  it("knows PDF, PNG, JPEG, GIF and ZIP by their magic numbers", () => {
    expect(sniffMimeType(new TextEncoder().encode("%PDF-1.4\n"))).toBe("application/pdf");
    expect(sniffMimeType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe("image/png");
    expect(sniffMimeType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe("image/jpeg");
    expect(sniffMimeType(new TextEncoder().encode("GIF89a"))).toBe("image/gif");
    expect(sniffMimeType(bytes(0x50, 0x4b, 0x03, 0x04, 0x14))).toBe("application/zip");
  });

  it("calls UTF-8 without control characters plain text, even cut in the middle of a character", () => {
    const text = new TextEncoder().encode("Invoice — 3 月\n");
    expect(sniffMimeType(text)).toBe("text/plain");
    expect(sniffMimeType(text.subarray(0, text.length - 3))).toBe("text/plain");
  });

  it("calls anything else, and HTML claiming nothing, what it is: bytes or text, never a page to render", () => {
    expect(sniffMimeType(bytes(0, 1, 2, 3, 0xfe))).toBe("application/octet-stream");
    expect(sniffMimeType(bytes())).toBe("application/octet-stream");
    expect(sniffMimeType(new TextEncoder().encode("<html><script>alert(1)</script>"))).toBe("text/plain");
  });
});
