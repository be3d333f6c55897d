// The browser computer's input stops where it acts once its progress is cancelled: a drag cut short
// lets go of the button where the pointer is and moves it no further; a typing cut short adds no
// key after it; a navigation cut short leaves the tab where it was; an action cancelled before it
// starts does nothing. The pages stamp what they
// receive with their own clock.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserComputer } from "../../src/computers/browser/browser-computer.ts";
import type { BrowserHost } from "../../src/computers/browser/browser-host.ts";
import { StopRequested } from "../../src/core/errors.ts";
import { Progress } from "../../src/core/progress.ts";
import { fixtureHost, openScreen } from "../support/fixture-browser.ts";
import { startFixtureServer, type FixtureServer } from "../support/fixture-server.ts";

let pages: FixtureServer;
let host: BrowserHost;
let computer: BrowserComputer;

beforeAll(async () => {
  pages = await startFixtureServer();
  host = fixtureHost();
  computer = await openScreen(host);
});

afterAll(async () => {
  await computer?.close();
  await host?.close();
  await pages?.close();
});

/** The records of one kind, each with the page's time. */
function stamped(kind: string): { text: string; at: number }[] {
  return pages.records.flatMap((r) => {
    const m = /^(.*)@([\d.]+)$/.exec(r);
    return m && m[1]!.startsWith(kind) ? [{ text: m[1]!, at: Number(m[2]) }] : [];
  });
}

/** A progress that Stop cancels after `ms`. */
function stoppedAfter(ms: number): Progress {
  const stop = new AbortController();
  setTimeout(() => stop.abort(new StopRequested()), ms);
  return Progress.of(stop.signal);
}

describe("the browser computer, stopped midway", () => {
  it("lets go of a drag's button where the pointer is, and moves it no further", async () => {
    await computer.navigate(pages.url("slow-drag.html"));
    await expect(computer.drag({ x: 50, y: 50 }, { x: 650, y: 650 }, stoppedAfter(150))).rejects.toBeInstanceOf(StopRequested);
    const returned = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    const [up] = stamped("up");
    expect(up, "the button was let go").toBeDefined();
    expect(up!.text).not.toBe("up 650,650");
    expect(stamped("move").filter((m) => m.at > up!.at)).toEqual([]);
    expect(up!.at).toBeLessThanOrEqual(returned);
  });

  it("adds no key to a field after a typing cut short has returned", async () => {
    await computer.navigate(pages.url("slow-typing.html"));
    await computer.click(300, 200);
    await expect(computer.type("a fairly long line of notes to type slowly", stoppedAfter(200))).rejects.toBeInstanceOf(StopRequested);
    const returned = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    const typed = stamped("len:");
    expect(typed.length).toBeGreaterThan(0);
    expect(typed.length).toBeLessThan(40);
    expect(typed.filter((t) => t.at > returned)).toEqual([]);
  });

  it("stops a navigation's loading: the tab stays on the page it was on", async () => {
    await computer.navigate(pages.url("slow-typing.html"));
    const started = Date.now();
    // The server holds this address back for 5 s.
    await expect(computer.navigate(pages.url("slow-image?ms=5000"), stoppedAfter(300))).rejects.toBeInstanceOf(StopRequested);
    expect(Date.now() - started).toBeLessThan(4_000);
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    expect(await computer.currentUrl()).toBe(pages.url("slow-typing.html"));
  });

  it("does not start an action whose progress has already ended", async () => {
    const stop = new AbortController();
    stop.abort(new StopRequested());
    const before = pages.records.length;
    await expect(computer.click(200, 430, "left", 1, Progress.of(stop.signal))).rejects.toBeInstanceOf(StopRequested);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pages.records.slice(before).filter((r) => r.startsWith("pressed"))).toEqual([]);
  });
});
