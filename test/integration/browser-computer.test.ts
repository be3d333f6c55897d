// The Computer interface, exercised on the browser computer against a page that reports every
// input it receives. (Each future computer — desktop, extension — runs the same stories.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Computer } from "../../src/computers/computer.ts";
import type { BrowserHost } from "../../src/computers/browser/browser-host.ts";
import { fixtureHost, openScreen } from "../support/fixture-browser.ts";
import { startFixtureServer, type FixtureServer } from "../support/fixture-server.ts";

let pages: FixtureServer;
let host: BrowserHost;
let computer: Computer;

beforeAll(async () => {
  pages = await startFixtureServer();
  host = fixtureHost();
  computer = await openScreen(host);
  await computer.navigate(pages.url("input-lab.html"));
});
afterAll(async () => {
  await computer?.close();
  await host?.close();
  await pages?.close();
});

describe("the browser computer", () => {
  it("captures JPEG screenshots of the viewport's size", async () => {
    const shot = await computer.screenshot();
    expect(shot).toMatchObject({ mimeType: "image/jpeg", width: 1280, height: 800 });
    expect(shot.data.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(await computer.currentUrl()).toBe(pages.url("input-lab.html"));
  });

  it("drags from one point to another with the button held", async () => {
    await computer.drag({ x: 50, y: 60 }, { x: 400, y: 300 });
    await pages.waitForRecord("down 0 50,60");
    await pages.waitForRecord("up 0 400,300");
    expect(await computer.cursorPosition()).toEqual({ x: 400, y: 300 });
  });

  it("clicks with each button where it is told, and remembers the cursor", async () => {
    await computer.click(100, 120);
    await pages.waitForRecord("down 0 100,120");
    await computer.click(110, 130, "middle");
    await pages.waitForRecord("down 1 110,130");
    await computer.click(120, 140, "right");
    await pages.waitForRecord("contextmenu 120,140");
    await computer.doubleClick(200, 210);
    await pages.waitForRecord("dblclick 200,210");
    await computer.move(300, 310);
    expect(await computer.cursorPosition()).toEqual({ x: 300, y: 310 });
  });

  it("types any Unicode and presses chords written the way models write them", async () => {
    await computer.click(850, 70);
    await computer.type("héllo 世界 ✓");
    await computer.keypress(["CTRL", "a"]);
    await pages.waitForRecord("ctrl+a");
    await computer.keypress(["ESC"]);
    await pages.waitForRecord("escape");
    await computer.keypress(["TAB"]);
    await pages.waitForRecord("value héllo 世界 ✓");
  });

  it("scrolls by pixels at a point, the wheel turning there wherever the pointer was", async () => {
    await computer.move(100, 100);
    await computer.scroll(640, 500, 0, 600);
    await pages.waitForRecord("wheel 640,500");
    await pages.waitForRecord("scrollY 600");
    await computer.scroll(700, 450, 0, -600);
    await pages.waitForRecord("wheel 700,450");
    await pages.waitForRecord("scrollY 0");
  });

  it("follows a page opened in a new tab as soon as the click has settled, and streams live frames", async () => {
    const frames: number[] = [];
    const stop = computer.onLiveFrame((frame) => frames.push(frame.width));
    await computer.click(750, 158);
    await computer.settle();
    expect(await computer.currentUrl()).toBe(pages.url("form.html"));
    await computer.click(200, 130);
    await pages.waitForRecord("clicked");
    await expect.poll(() => frames.length).toBeGreaterThan(0);
    stop();
    expect(frames.every((w) => w === 1280)).toBe(true);
  });

  it("streams live frames again once its captures are done (the stream pauses while it captures)", async () => {
    let frames = 0;
    const stop = computer.onLiveFrame(() => frames++);
    try {
      await expect.poll(() => frames).toBeGreaterThan(0);
      await Promise.all([computer.screenshot(), computer.screenshot()]);
      const after = frames;
      // Nothing on the page changes: the frame that comes is the one the stream starts with.
      await expect.poll(() => frames).toBeGreaterThan(after);
    } finally {
      stop();
    }
  });

  it("goes back and forward on Alt+Left and Alt+Right, as the browser does, though keys sent over CDP never reach it", async () => {
    await computer.navigate(pages.url("links.html"));
    await computer.navigate(pages.url("form.html"));
    await computer.keypress(["alt", "left"]);
    await expect.poll(() => computer.currentUrl()).toBe(pages.url("links.html"));
    await computer.keypress(["Alt+ArrowRight"]);
    await expect.poll(() => computer.currentUrl()).toBe(pages.url("form.html"));
    await computer.keypress(["ALT", "LEFT"]);
    await expect.poll(() => computer.currentUrl()).toBe(pages.url("links.html"));
  });

  it("reports a page that cannot be opened as a failed action, not a crash", async () => {
    await expect(computer.navigate("http://127.0.0.1:9/unreachable")).rejects.toMatchObject({ code: "ACTION_FAILED" });
  });
});

describe("its idle time", () => {
  const options = { width: 1280, height: 800, jpegQuality: 80, navigationTimeoutMs: 10_000 };

  it("runs work for later once its operations stop, never while they follow one another", async () => {
    const busy = await host.open(options);
    try {
      await busy.navigate(pages.url("input-lab.html"));
      let ran = false;
      busy.whenIdle(() => (ran = true));
      for (const until = Date.now() + 1_500; Date.now() < until; ) await busy.screenshot();
      expect(ran).toBe(false);
      await expect.poll(() => ran).toBe(true);
    } finally {
      await busy.close();
    }
  });

  it("runs it as it closes when it was never idle", async () => {
    const unused = await host.open(options);
    let ran = false;
    unused.whenIdle(() => (ran = true));
    await unused.close();
    expect(ran).toBe(true);
  });
});

describe("a new, empty tab", () => {
  it("can be captured at once, before it has painted (it used to fail about 1 time in 4)", async () => {
    for (let i = 0; i < 12; i++) {
      const fresh = await host.open({ width: 800, height: 600, jpegQuality: 80, navigationTimeoutMs: 10_000 });
      try {
        expect(await fresh.screenshot()).toMatchObject({ width: 800, height: 600 });
      } finally {
        await fresh.close();
      }
    }
  });
});

describe("a field with the focus", () => {
  it("shows its caret steadily: captures of a page where nothing happens are the same bytes", async () => {
    const steady = await host.open({ width: 800, height: 600, jpegQuality: 80, navigationTimeoutMs: 10_000 });
    try {
      await steady.navigate(pages.url("form.html"));
      await steady.click(250, 240);
      await steady.type("abc");
      const first = await steady.screenshot();
      // Chromium's caret blinks every 500 ms: a second and a half of captures sees it on and off.
      for (let i = 0; i < 6; i++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        expect((await steady.screenshot()).data.equals(first.data)).toBe(true);
      }
    } finally {
      await steady.close();
    }
  });
});

describe("devicePixelRatio 2", () => {
  it("takes points in screenshot pixels and clicks the matching CSS pixel", async () => {
    const hiDpi = await host.open({ width: 640, height: 400, deviceScaleFactor: 2, jpegQuality: 80, navigationTimeoutMs: 10_000 });
    try {
      await hiDpi.navigate(pages.url("input-lab.html"));
      const shot = await hiDpi.screenshot();
      expect(shot).toMatchObject({ width: 1280, height: 800 });
      await hiDpi.click(400, 300);
      await pages.waitForRecord("down 0 200,150");
      await hiDpi.scroll(400, 300, 0, 500); // screenshot pixels: 250 CSS pixels
      await pages.waitForRecord("scrollY 250");
      expect(await hiDpi.screenshot()).toMatchObject({ width: 1280, height: 800 });
    } finally {
      await hiDpi.close();
    }
  });
});
