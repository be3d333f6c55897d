import { describe, expect, it } from "vitest";
import type { ChatTurn } from "../models/chat/chat-model.ts";
import { DELTA_MARK } from "../perception/page-view/delta.ts";
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

  it("keeps the view a view of changes applies to, and does not count a failed view", () => {
    const view = (text: string) => `{"ok":true,"data":{}}\nPage — "Shop" https://shop.test/\n${text}`;
    const out = compressContext([
      call(1, "ariaTree"),
      result(1, "ariaTree", view('- button "Old" [ref=e1]')),
      call(2, "ariaTree"),
      result(2, "ariaTree", view('- button "Buy" [ref=e2]')),
      call(3, "ariaTree"),
      result(3, "ariaTree", '{"ok":false,"error":{"code":"NOT_FOUND","message":"no match"}}'),
      call(4, "ariaTree"),
      result(4, "ariaTree", view(`${DELTA_MARK} (…):\n-- button "Buy" [ref=e2]\n+- button "Bought" [ref=e2]`)),
    ]);
    const tools = out.filter((t) => t.role === "tool").map((t) => (t.content.includes('"omitted"') ? "omitted" : "kept"));
    expect(tools).toEqual(["omitted", "kept", "kept", "kept"]);
  });

  it("cuts at the last line break instead of inside a line, and leaves the latest page view whole", () => {
    const lines = Array.from({ length: 1_000 }, (_, i) => `- link "Item ${i}" [ref=e${i}]`).join("\n");
    const [extracted, view] = compressContext([result(1, "extract", lines), result(2, "ariaTree", lines)]);
    const kept = (extracted as { content: string }).content.split("… [")[0]!;
    expect(lines.startsWith(`${kept}\n`)).toBe(true);
    expect(kept.length).toBeLessThanOrEqual(10_000);
    expect(view).toMatchObject({ content: lines });
  });

  it("keeps only the latest read_page of the browser toolset whole, in words the model acts on, and a bare screenshot's placeholder alone", () => {
    const member = (n: number, name: string, content: string, isError = false, withImage = false): ChatTurn => ({
      ...(result(n, name, content, withImage) as Extract<ChatTurn, { role: "tool" }>),
      toolset: { name: "browser", isError, tabs: isError ? null : [] },
    });
    const long = `Page — "A" https://a.test/\n${"- button \"Go\" [ref_1]\n".repeat(800)}`;
    const out = compressContext([
      { role: "user", text: "Goal: read" },
      member(1, "read_page", "the first read"),
      member(2, "screenshot", "", false, true),
      member(3, "screenshot", "", false, true),
      member(4, "screenshot", "", false, true),
      member(5, "read_page", "ref_9 is stale", true),
      member(6, "read_page", long),
    ]).filter((t) => t.role === "tool");
    expect(out.map((t) => t.content)).toEqual([
      "[An older read of the page, no longer shown; the page may have changed since: call read_page for the current one.]",
      "[an older screenshot, no longer shown]",
      "",
      "",
      "ref_9 is stale",
      long,
    ]);
  });
});
