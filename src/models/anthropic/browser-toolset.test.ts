// The browser toolset entry as its reference has it: one nameless entry whose configs change only
// the defaults we differ from, and the models it is offered to (those of the computer toolset).
import { describe, expect, it } from "vitest";
import { BROWSER_MEMBERS, browserToolsetEntry, takesBrowserToolset } from "./browser-toolset.ts";

describe("the browser toolset entry", () => {
  it("turns off only the members on by default that are not served, and turns on default-off ones that are", () => {
    const served = new Set(["navigate", "read_page", "find", "left_click", "form_input", "read_network"]);
    const entry = browserToolsetEntry(served);
    expect(Object.keys(entry).sort()).toEqual(["configs", "type"]);
    expect(entry.type).toBe("browser_toolset_20260801");
    const off = BROWSER_MEMBERS.filter((m) => !served.has(m) && !["file_upload", "read_console", "read_network", "javascript_exec"].includes(m));
    expect(entry.configs).toEqual({ ...Object.fromEntries(off.map((m) => [m, { enabled: false }])), read_network: { enabled: true } });
  });

  it("sends no configs when the served members are exactly the defaults", () => {
    const defaults = BROWSER_MEMBERS.filter((m) => !["file_upload", "read_console", "read_network", "javascript_exec"].includes(m));
    expect(browserToolsetEntry(new Set(defaults))).toEqual({ type: "browser_toolset_20260801" });
    expect(BROWSER_MEMBERS).toHaveLength(31);
  });

  it("is offered to the models that take the 2026-08-01 toolsets, and to no older one", () => {
    expect(["claude-sonnet-5", "claude-opus-5-5", "claude-opus-4-8", "anthropic/claude-haiku-5"].map(takesBrowserToolset)).toEqual([true, true, true, true]);
    expect(["claude-opus-4-7", "claude-sonnet-4-5", "claude-test"].map(takesBrowserToolset)).toEqual([false, false, false]);
  });
});
