import { describe, expect, it } from "vitest";
import type { ChatTurn } from "../models/chat/chat-model.ts";
import { compressContext } from "./tool-context.ts";

const image = { mimeType: "image/jpeg" as const, data: "AAAA" };
const call = (n: number, name: string): ChatTurn => ({ role: "assistant", text: "", toolCalls: [{ id: `c${n}`, name, arguments: "{}" }] });
const result = (n: number, name: string, content: string, withImage = false): ChatTurn => ({
  role: "tool",
  toolCallId: `c${n}`,
  name,
  content,
  ...(withImage ? { image } : {}),
});

describe("compressContext", () => {
  const turns: ChatTurn[] = [
    { role: "user", text: "Goal: buy milk" },
    call(1, "ariaTree"),
    result(1, "ariaTree", "tree one"),
    call(2, "screenshot"),
    result(2, "screenshot", "{}", true),
    call(3, "screenshot"),
    result(3, "screenshot", "{}", true),
    call(4, "ariaTree"),
    result(4, "ariaTree", "tree two"),
    call(5, "screenshot"),
    result(5, "screenshot", "{}", true),
  ];

  it("keeps only the latest ARIA tree and the latest two screenshots", () => {
    const out = compressContext(turns);
    const tools = out.filter((t) => t.role === "tool");
    expect(tools.map((t) => [t.name, t.content.startsWith("{\"omitted\"") ? "omitted" : t.content.includes("no longer shown") ? "no image" : "kept", Boolean(t.image)])).toEqual([
      ["ariaTree", "omitted", false],
      ["screenshot", "no image", false],
      ["screenshot", "kept", true],
      ["ariaTree", "kept", false],
      ["screenshot", "kept", true],
    ]);
    expect(out).toHaveLength(turns.length);
    expect(turns[4]).toMatchObject({ image }); // the conversation itself is untouched
  });

  it("cuts any text at 10,000 characters and says how much was cut", () => {
    const long = "x".repeat(12_345);
    const [tool, user] = compressContext([result(1, "extract", long), { role: "user", text: long }]);
    expect(tool).toMatchObject({ content: `${"x".repeat(10_000)}… [2345 more characters cut]` });
    expect(user).toMatchObject({ text: `${"x".repeat(10_000)}… [2345 more characters cut]` });
  });
});
