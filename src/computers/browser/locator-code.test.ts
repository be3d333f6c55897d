import { describe, expect, it } from "vitest";
import { parseLocatorCode } from "./locator-code.ts";

describe("parseLocatorCode", () => {
  it("reads the chains Playwright writes", () => {
    expect(parseLocatorCode("getByRole('button', { name: 'Submit' })")).toEqual([{ method: "getByRole", args: ["button", { name: "Submit" }] }]);
    expect(parseLocatorCode(`locator('iframe[title="Inner form"]').contentFrame().getByRole('textbox', { name: 'Inner field', exact: true })`)).toEqual([
      { method: "locator", args: ['iframe[title="Inner form"]'] },
      { method: "contentFrame", args: [] },
      { method: "getByRole", args: ["textbox", { name: "Inner field", exact: true }] },
    ]);
    expect(parseLocatorCode("locator('div').filter({ hasText: 'It\\'s here' }).nth(2)")).toEqual([
      { method: "locator", args: ["div"] },
      { method: "filter", args: [{ hasText: "It's here" }] },
      { method: "nth", args: [2] },
    ]);
    expect(parseLocatorCode("getByText('Line one\\nline two \\u00e9')")[0]!.args).toEqual(["Line one\nline two é"]);
    const [regex] = parseLocatorCode("getByText(/^Total: \\d+ \\/ month$/i)");
    expect(regex!.args[0]).toEqual(/^Total: \d+ \/ month$/i);
  });

  it("refuses anything that is not plain locator code", () => {
    for (const code of ["", "getByRole('button', { name: fetch('/x') })", "getByText('a'); process.exit()", "getByRole('x', { onClick: 1 })", "getByText('open"]) {
      expect(() => parseLocatorCode(code)).toThrow(/Not locator code/);
    }
  });
});
