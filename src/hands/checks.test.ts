import { describe, expect, it } from "vitest";
import type { StepEffect } from "../protocol/index.ts";
import { CheckLog } from "./checks.ts";

const usage = { input_tokens: 0, output_tokens: 0 };
const effect = (changed: boolean, retries = 0): StepEffect => ({ changed, ratio: changed ? 0.1 : 0, structural: changed, retries, note: retries > 0 ? `retried ${retries} times a few pixels off` : null });
const hit = (on_target: boolean) => ({ method: "hit_test" as const, cursor_x: 1, cursor_y: 1, on_target, dx: null, dy: null, frame: null, annotated: null });

describe("CheckLog: the checks of one step's actions, together", () => {
  it("says so when one action of several changed nothing", () => {
    const log = new CheckLog();
    log.add({ effect: effect(true), verification: null, usage });
    log.add({ effect: effect(false, 3), verification: null, usage });
    expect(log.take()!.effect).toMatchObject({ changed: true, retries: 3, note: "1 of 2 actions changed nothing" });
  });

  it("keeps the most telling effect of the step's actions: a download one of them started stays its news", () => {
    const log = new CheckLog();
    log.add({ effect: { ...effect(true), seen: "download" }, verification: null, usage });
    log.add({ effect: { ...effect(true), seen: "screen" }, verification: null, usage });
    expect(log.take()!.effect).toMatchObject({ changed: true, seen: "download" });
  });

  it("counts only actions with an effect of their own (not a click that only focused a field)", () => {
    const log = new CheckLog();
    log.add({ verification: { verified: true, attempts: [hit(true)], model_calls: 0, elapsed_ms: 2 }, usage });
    log.add({ effect: effect(true), verification: null, usage });
    expect(log.take()).toMatchObject({ effect: { changed: true, note: null }, verification: { verified: true } });
  });

  it("joins the pointer checks and numbers the next one's captures on", () => {
    const log = new CheckLog();
    log.add({ effect: effect(true), verification: { verified: true, attempts: [hit(false), hit(true)], model_calls: 0, elapsed_ms: 5 }, usage });
    expect(log.attempts).toBe(2);
    log.add({ effect: effect(true), verification: { verified: false, attempts: [hit(false)], model_calls: 0, elapsed_ms: 3 }, usage });
    expect(log.take()!.verification).toMatchObject({ verified: false, model_calls: 0, elapsed_ms: 8 });
    expect(log.take()).toBeNull();
  });
});
