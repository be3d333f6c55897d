// The browser host opens the next task's context while a task runs, once that task is idle (its
// model thinking), and hands it to the next task opened alike; a spare of another size is closed
// and a context of the right size opened instead.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { BrowserComputer } from "../../src/computers/browser/browser-computer.ts";
import { fixtureHost, openScreen } from "../support/fixture-browser.ts";
import { startFixtureServer, type FixtureServer } from "../support/fixture-server.ts";

let pages: FixtureServer;

beforeAll(async () => {
  pages = await startFixtureServer();
});
afterAll(async () => {
  await pages?.close();
});

describe("the next task's context", () => {
  it("is opened once the running task is idle, and only a task opened alike gets it", async () => {
    const host = fixtureHost();
    const created = vi.spyOn(BrowserComputer, "create");
    try {
      const first = await openScreen(host);
      await first.navigate(pages.url("form.html"));
      expect(created).toHaveBeenCalledTimes(1);
      // Idle after its last operation: the spare opens beside it.
      await expect.poll(() => created.mock.calls.length).toBe(2);
      const second = await openScreen(host);
      expect(created).toHaveBeenCalledTimes(2);
      expect(second).not.toBe(first);
      // A context of its own: a new page, nothing of the first task's.
      expect(await second.currentUrl()).toBe("about:blank");
      expect(await first.currentUrl()).toBe(pages.url("form.html"));
      expect(await second.screenshot()).toMatchObject({ width: 1280, height: 800 });
      await first.close();

      // The spare opened after the second is 1280×800; a task that wants another size gets a new context.
      await expect.poll(() => created.mock.calls.length).toBe(3);
      const third = await openScreen(host, 1024, 768);
      expect(created).toHaveBeenCalledTimes(4);
      expect(await third.screenshot()).toMatchObject({ width: 1024, height: 768 });
      await second.close();
      await third.close();
    } finally {
      created.mockRestore();
      await host.close();
    }
  });
});
