// The code the docs show is the code `npm run typecheck` compiles: each example's copy in
// docs/examples/ matches its block in the doc, but for the import paths a copy outside src/ needs.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), "utf8");

describe("the docs' examples", () => {
  it("shows in docs/adding-a-tool.md the hover tool that docs/examples/hover-tool.ts compiles", () => {
    const block = /```ts\n([\s\S]*?)```/.exec(read("docs/adding-a-tool.md"))![1]!;
    const compiled = read("docs/examples/hover-tool.ts").replaceAll("../../src/tools/", "./");
    expect(compiled.endsWith(block)).toBe(true);
  });
});
