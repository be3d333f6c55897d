import { describe, expect, it } from "vitest";
import { safeFileName } from "./file-name.ts";

describe("the name a received file is kept under", () => {
  it("keeps only the last part of a path, whichever slash it uses", () => {
    expect(safeFileName("../../etc/passwd")).toBe("passwd");
    expect(safeFileName("C:\\Users\\x\\invoice.pdf")).toBe("invoice.pdf");
  });

  it("replaces control and reserved characters, and names a file that had no usable name", () => {
    expect(safeFileName('a\u0000b<c>"d".pdf')).toBe("a_b_c__d_.pdf");
    expect(safeFileName("..")).toBe("download");
    expect(safeFileName("")).toBe("download");
    expect(safeFileName("发票 三月.pdf")).toBe("发票 三月.pdf");
  });
});
