import { describe, expect, it } from "vitest";
import type { Computer, Screenshot, StructuralEffect } from "../computers/computer.ts";
import { loadConfig } from "../core/load-config.ts";
import { PhaseClock } from "../core/phase-clock.ts";
import { Progress } from "../core/progress.ts";
import type { FrameRef } from "../protocol/index.ts";
import { Hands, wantsPointerCheck, type Deed } from "./hands.ts";

describe("wantsPointerCheck (VERIFY_CLICKS)", () => {
  it("checks every click the hit test can check by default, and elsewhere the clicks that ask", () => {
    expect(wantsPointerCheck("click", false, "auto", true)).toBe(true);
    expect(wantsPointerCheck("double_click", false, "auto", true)).toBe(true);
    expect(wantsPointerCheck("click", true, "auto", false)).toBe(true);
    expect(wantsPointerCheck("click", false, "auto", false)).toBe(false);
  });
  it("can follow only the action's request", () => {
    expect(wantsPointerCheck("click", true, "requested", true)).toBe(true);
    expect(wantsPointerCheck("click", false, "requested", true)).toBe(false);
  });
  it("can be switched on or off", () => {
    expect(wantsPointerCheck("double_click", false, "always", false)).toBe(true);
    expect(wantsPointerCheck("right_click", true, "never", true)).toBe(false);
  });
  it("applies to clicks only", () => {
    expect(wantsPointerCheck("type", true, "always", true)).toBe(false);
    expect(wantsPointerCheck("drag", true, "auto", true)).toBe(false);
  });
});

const shot: Screenshot = { data: Buffer.from([1, 2, 3]), mimeType: "image/jpeg", width: 100, height: 100 };

/** Hands on `computer` with the default policy; `ask` answers the person's part. */
function handsOn(computer: Computer, ask: () => Promise<boolean>, earlyReadMs?: number): Hands {
  return new Hands({
    ...(earlyReadMs === undefined ? {} : { earlyReadMs }),
    computer,
    config: loadConfig({}),
    progress: Progress.of(new AbortController().signal, new PhaseClock()),
    saveFrame: async () => ({ id: "frame", url: "/frame" }) as unknown as FrameRef,
    trusted: new Set(),
    ask,
  });
}

describe("Hands: the page's structure before an action", () => {
  /** A computer that only notes when its structure and its address are read, and when it acts. */
  function noting(events: string[], urlMs = 0): Computer {
    const nothing: StructuralEffect = { mutations: 0, scrolled: false, quiet: [] };
    return {
      kind: "browser",
      logicalSize: { width: 100, height: 100 },
      screenshot: async () => shot,
      keypress: async (keys: string[]) => void events.push(`press ${keys.join("+")}`),
      settle: async () => undefined,
      cursorPosition: async () => ({ x: 0, y: 0 }),
      currentUrl: async () => {
        events.push("url");
        if (urlMs > 0) await new Promise((resolve) => setTimeout(resolve, urlMs));
        return "https://example.com/";
      },
      watchStructure: async () => {
        events.push("read");
        return async () => nothing;
      },
    } as unknown as Computer;
  }
  const handsOf = (computer: Computer, events: string[], earlyReadMs?: number) =>
    handsOn(
      computer,
      async () => {
        events.push("asked");
        return true;
      },
      earlyReadMs,
    );
  const press = (keys: string[]): Deed => ({ kind: "action", action: { type: "keypress", args: { keys }, intent: "press", requires_verification: false }, intent: "press" });

  it("is read once, while the policy judges the action", async () => {
    const events: string[] = [];
    // However long a busy machine stalls the policy here, the early read stands.
    await handsOf(noting(events), events, 60_000).perform(press(["a"]), { look: null, requested: false });
    expect(events).toEqual(["read", "url", "press a", "url"]);
  });

  it("is read again after the person was asked: the page may have changed while they decided", async () => {
    const events: string[] = [];
    await handsOf(noting(events), events).perform(press(["Control", "w"]), { look: null, requested: false });
    expect(events).toEqual(["read", "url", "asked", "read", "press Control+w", "url"]);
  });

  it("is read again when the policy took long: what the page did meanwhile is not the action's", async () => {
    const events: string[] = [];
    await handsOf(noting(events, 120), events).perform(press(["a"]), { look: null, requested: false });
    expect(events).toEqual(["read", "url", "read", "press a", "url"]);
  });
});

describe("Hands: a BLOCKED_DOMAINS page a redirect took the agent to", () => {
  const computer = {
    kind: "browser",
    logicalSize: { width: 100, height: 100 },
    screenshot: async () => shot,
    settle: async () => undefined,
    cursorPosition: async () => ({ x: 0, y: 0 }),
    currentUrl: async () => "https://blocked.example/",
    gate: { judge: async () => ({ allowed: false, why: "blocked.example is on the block-list (BLOCKED_DOMAINS)", closedBy: "BLOCKED_DOMAINS" }), permit: () => undefined },
  } as unknown as Computer;
  const hands = handsOn(computer, async () => true);
  const deed = (ran: string[], name: string, passive?: boolean): Deed => ({ kind: "page", run: async () => void ran.push(name), ...(passive ? { passive } : {}) });

  it("refuses what acts on the page, even a page deed that names no element (a select, a hover), and lets it scroll and leave", async () => {
    const ran: string[] = [];
    await expect(hands.perform(deed(ran, "select"), { look: null, requested: false })).rejects.toMatchObject({ code: "DENIED", message: expect.stringContaining("may only leave it") });
    await hands.perform(deed(ran, "back", true), { look: null, requested: false });
    expect(ran).toEqual(["back"]);
  });
});

describe("Hands: a task that may not act any more", () => {
  it("does not open its start page: opening it is asked about as any action is", async () => {
    const opened: string[] = [];
    const computer = {
      kind: "browser",
      logicalSize: { width: 100, height: 100 },
      screenshot: async () => shot,
      currentUrl: async () => null,
      navigate: async (url: string) => void opened.push(url),
    } as unknown as Computer;
    const hands = new Hands({
      computer,
      config: loadConfig({}),
      progress: Progress.of(new AbortController().signal, new PhaseClock()),
      saveFrame: async () => ({ id: "frame", url: "/frame" }) as unknown as FrameRef,
      trusted: new Set(["example.com"]),
      ask: async () => true,
      beforeActing: async () => {
        throw new Error("another worker took the task up");
      },
    });
    await expect(hands.start("https://example.com/")).rejects.toThrow("another worker took the task up");
    expect(opened).toEqual([]);
  });
});
