import { describe, expect, it } from "vitest";
import { TaskQueue } from "./task-queue.ts";

const later = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe("TaskQueue", () => {
  it("runs at most `limit` at once, the rest in the order they came", async () => {
    const queue = new TaskQueue(1);
    const order: string[] = [];
    const first = later();
    const a = queue.run(async () => (order.push("a starts"), await first.promise, order.push("a ends")), new AbortController().signal);
    const b = queue.run(async () => void order.push("b starts"), new AbortController().signal);
    const c = queue.run(async () => void order.push("c starts"), new AbortController().signal);
    await Promise.resolve();
    expect(order).toEqual(["a starts"]);
    first.resolve();
    await Promise.all([a, b, c]);
    expect(order).toEqual(["a starts", "a ends", "b starts", "c starts"]);
  });

  it("passes a freed place straight to the next in line: work given in between still waits", async () => {
    const queue = new TaskQueue(1);
    const order: string[] = [];
    const first = later();
    const a = queue.run(() => first.promise, new AbortController().signal);
    const b = queue.run(async () => void order.push("b"), new AbortController().signal);
    expect(queue.full).toBe(true);
    first.resolve();
    await a;
    // b has the place, though it has not started yet: c, given now, goes after it.
    expect(queue.full).toBe(true);
    const c = queue.run(async () => void order.push("c"), new AbortController().signal);
    await Promise.all([b, c]);
    expect(order).toEqual(["b", "c"]);
    expect(queue.full).toBe(false);
  });

  it("lets a task stopped while it waits end at once", async () => {
    const queue = new TaskQueue(1);
    const first = later();
    const a = queue.run(() => first.promise, new AbortController().signal);
    const stop = new AbortController();
    const b = queue.run(async () => "b ran", stop.signal);
    stop.abort();
    await expect(b).resolves.toBe("b ran");
    first.resolve();
    await a;
  });
});
