import { describe, expect, it } from "vitest";
import { SENSITIVE_DOMAINS } from "../core/config.ts";
import { actsOnPage, hotkeyRisk, sensitiveSiteRisks, withNewOrigins } from "./classify.ts";

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

describe("actsOnPage", () => {
  it("tells clicks, typing and keys from leaving (another address) and looking (scroll, wait)", () => {
    const keys = (k: string[]) => ({ type: "keypress" as const, args: { keys: k }, intent: "", requires_verification: false });
    expect(actsOnPage({ type: "navigate", args: { url: "https://example.com/" }, intent: "", requires_verification: false })).toBe(false);
    expect(actsOnPage({ type: "wait", args: { ms: 100 }, intent: "", requires_verification: false })).toBe(false);
    expect(actsOnPage({ type: "scroll", args: { x: 1, y: 1, scroll_x: 0, scroll_y: 100 }, intent: "", requires_verification: false })).toBe(false);
    expect(actsOnPage(keys(["alt", "left"]))).toBe(true);
    expect(actsOnPage(keys(["Enter"]))).toBe(true);
    expect(actsOnPage({ type: "click", args: { x: 1, y: 1, button: "left" }, intent: "", requires_verification: false })).toBe(true);
  });
});

describe("withNewOrigins", () => {
  it("adds a new_origin for each origin a risk leads to that the task has not been on", () => {
    const leave = { kind: "leave_site" as const, message: "leaves", origin: "https://b.example" };
    expect(withNewOrigins([leave], new Set(["https://a.example"]))).toEqual([leave, { kind: "new_origin", message: "opens https://b.example for the first time", origin: "https://b.example" }]);
    expect(withNewOrigins([leave], new Set(["https://b.example"]))).toEqual([leave]);
  });
});

describe("sensitiveSiteRisks", () => {
  const click = { type: "click" as const, args: { x: 1, y: 1, button: "left" as const }, intent: "", requires_verification: false };
  const scroll = { type: "scroll" as const, args: { x: 1, y: 1, scroll_x: 0, scroll_y: 300 }, intent: "", requires_verification: false };
  const open = (url: string) => ({ type: "navigate" as const, args: { url }, intent: "", requires_verification: false });

  it("asks for every action that changes something on a listed site or its subdomains, and for opening one", () => {
    expect(sensitiveSiteRisks(SENSITIVE_DOMAINS, "https://www.paypal.com/signin", click, null)).toEqual([{ kind: "sensitive_site", message: "acts on www.paypal.com, which is on the sensitive-site list" }]);
    expect(sensitiveSiteRisks(SENSITIVE_DOMAINS, "https://shop.example/", open("https://accounts.google.com/"), null)).toHaveLength(1);
    expect(sensitiveSiteRisks(["bank.example"], "https://bank.example/", null, { element: "focused", how: "type" })).toHaveLength(1);
  });

  it("lets looking alone, and other sites, go", () => {
    expect(sensitiveSiteRisks(SENSITIVE_DOMAINS, "https://www.paypal.com/", scroll, null)).toEqual([]);
    expect(sensitiveSiteRisks(SENSITIVE_DOMAINS, "https://notpaypal.com/", click, null)).toEqual([]);
    expect(sensitiveSiteRisks(SENSITIVE_DOMAINS, "https://www.paypal.com/", null, null)).toEqual([]);
  });
});
