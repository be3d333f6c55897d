import { describe, expect, it } from "vitest";
import { AppError, StopRequested } from "./errors.ts";
import { Progress } from "./progress.ts";

const late = () => new AppError("ACTION_FAILED", "too slow");

describe("Progress", () => {
  it("runs out of time at its deadline, and says why when checked", async () => {
    const part = Progress.of(new AbortController().signal).within(40, late);
    expect(() => part.check()).not.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(() => part.check()).toThrow("too slow");
  });

  it("does not count the time the person takes against the deadline", async () => {
    const part = Progress.of(new AbortController().signal).within(60, late);
    await part.hold(() => new Promise((resolve) => setTimeout(resolve, 150)));
    expect(part.signal.aborted).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(part.signal.aborted).toBe(true);
  });

  it("holds every deadline it is part of, and is cancelled by the operation's Stop", async () => {
    const stop = new AbortController();
    const outer = Progress.of(stop.signal).within(60, late);
    const inner = outer.within(1_000, late);
    await inner.hold(() => new Promise((resolve) => setTimeout(resolve, 150)));
    expect(outer.signal.aborted).toBe(false);
    stop.abort(new StopRequested("stopped by the user"));
    expect(() => inner.check()).toThrow(StopRequested);
    inner.end();
    outer.end();
  });

  it("keeps a log of its own, of what it was doing", () => {
    const task = Progress.of(new AbortController().signal);
    task.log("opened the page");
    const part = task.within(1_000, late);
    part.log("type (the Notes field)");
    expect(part.logged).toEqual(["type (the Notes field)"]);
    expect(task.logged).toEqual(["opened the page"]);
    part.end();
  });

  it("stays ended when a hold begun before its end comes back", async () => {
    const part = Progress.of(new AbortController().signal).within(30, late);
    let release = () => {};
    const held = part.hold(() => new Promise<void>((resolve) => (release = resolve)));
    part.end();
    release();
    await held;
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(part.signal.aborted).toBe(false);
  });

  it("is not held once it has ended", async () => {
    const part = Progress.of(new AbortController().signal).within(10, late);
    await new Promise((resolve) => setTimeout(resolve, 40));
    await expect(part.hold(async () => "asked")).rejects.toThrow("too slow");
  });
});
