import { describe, expect, it } from "vitest";
import { hotkeyRisk, withNewOrigins } from "./classify.ts";

describe("hotkeyRisk", () => {
  it("knows the chords that close, quit, lock or delete for good, however they are written", () => {
    expect(hotkeyRisk(["alt", "F4"])).toMatchObject({ kind: "hotkey", message: "presses Alt+F4, which closes the window" });
    expect(hotkeyRisk(["CTRL+W"])?.message).toContain("closes the tab or window");
    expect(hotkeyRisk(["super", "l"])?.message).toContain("locks the screen");
    expect(hotkeyRisk(["ctrl", "alt", "del"])?.kind).toBe("hotkey");
    expect(hotkeyRisk(["shift", "delete"])?.message).toContain("deletes for good");
  });

  it("leaves everyday chords alone", () => {
    for (const keys of [["ctrl", "c"], ["ctrl", "a"], ["Enter"], ["alt", "tab"], ["ctrl", "shift", "w", "x"], ["Delete"]]) expect(hotkeyRisk(keys)).toBeNull();
  });
});

describe("withNewOrigins", () => {
  it("adds a new_origin for each origin a risk leads to that the task has not been on", () => {
    const leave = { kind: "leave_site" as const, message: "leaves", origin: "https://b.example" };
    expect(withNewOrigins([leave], new Set(["https://a.example"]))).toEqual([leave, { kind: "new_origin", message: "opens https://b.example for the first time", origin: "https://b.example" }]);
    expect(withNewOrigins([leave], new Set(["https://b.example"]))).toEqual([leave]);
  });
});
