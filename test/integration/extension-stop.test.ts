// Stop in the person's Chrome through the extension: the agent's typing in the task's tab, which
// stays open after the task, ends with Stop — once Stop has returned the field takes no more keys.
// The page (slow-typing.html) stamps each change with its own clock.
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../support/app.ts";
import { chromeConnectedTo } from "../support/extension-browser.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages } = useWorld({ app: false });
let app: TestApp;
let context: BrowserContext;

beforeAll(async () => {
  app = await startApp({ modelBaseUrl: model.baseUrl });
  ({ context } = await chromeConnectedTo(app));
}, 180_000);

afterAll(async () => {
  await context?.close();
  await app?.close();
});

/** The field's lengths as the page saw them change, each with the page's time. */
function lengths(): { length: number; at: number }[] {
  return pages.records.flatMap((r) => {
    const m = /^len:(\d+)@([\d.]+)$/.exec(r);
    return m ? [{ length: Number(m[1]), at: Number(m[2]) }] : [];
  });
}

describe("Stop in the person's Chrome through the extension", () => {
  it("ends the agent's typing in the task's tab: once Stop has returned, the field takes no more keys", async () => {
    const text = "the quick brown fox jumps over the lazy dog ".repeat(30);
    model.route((r) => planningText(r).includes("Task: type my notes slowly"), act("click", { x: 300, y: 200 }, "Focusing the notes"), act("type", { text }, "Typing the notes"));
    const events = await openStream(app.url, "s-ext-stop", 0);
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", computer: "extension", session_id: "s-ext-stop", text: "type my notes slowly", start_url: pages.url("slow-typing.html") });
    await waitUntil(() => lengths().some((l) => l.length >= 20), 60_000);

    const stop = await app.api("POST", "/api/chat/stop", { task_id: json.task_id });
    const returned = Date.now();
    expect(stop.status).toBe(202);
    expect(await events.waitForEnd(json.task_id, 10_000)).toMatchObject({ type: "task.stopped" });
    events.close();
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    const seen = lengths();
    expect(seen.filter((l) => l.at > returned)).toEqual([]);
    expect(Math.max(...seen.map((l) => l.length))).toBeLessThan(text.length);
  });
});

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition never held");
    await new Promise((r) => setTimeout(r, 20));
  }
}
