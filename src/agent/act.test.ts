import { describe, expect, it } from "vitest";
import type { Planner } from "../models/planner.ts";
import { actionSchema } from "../protocol/index.ts";
import { needsVerification } from "./act.ts";

const click = (requires_verification: boolean) => actionSchema.parse({ type: "click", args: { x: 1, y: 1 }, requires_verification });
const typing = actionSchema.parse({ type: "type", args: { text: "x" }, requires_verification: true });
const planner = (verifyClicks?: Planner["verifyClicks"]): Planner => ({ name: "p", next: () => Promise.reject(new Error("unused")), verifyClicks });
const global = (clicks: "requested" | "always" | "never") => ({ clicks, method: "auto" as const, maxAttempts: 4, tolerancePx: 14 });

describe("needsVerification", () => {
  it("follows the action's request by default", () => {
    expect(needsVerification(click(true), planner(), global("requested"))).toBe(true);
    expect(needsVerification(click(false), planner(), global("requested"))).toBe(false);
  });
  it("can be switched on or off globally", () => {
    expect(needsVerification(click(false), planner(), global("always"))).toBe(true);
    expect(needsVerification(click(true), planner(), global("never"))).toBe(false);
  });
  it("lets a planner override the global switch", () => {
    expect(needsVerification(click(false), planner("always"), global("never"))).toBe(true);
    expect(needsVerification(click(true), planner("never"), global("always"))).toBe(false);
  });
  it("applies to clicks only", () => {
    expect(needsVerification(typing, planner("always"), global("always"))).toBe(false);
  });
});
