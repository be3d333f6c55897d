// The desktop computer on a real X server (Xvfb) with a real window manager and a real program:
// XTest input reaches the program, GetImage captures the screen, and any text types — shifted
// symbols, accents and CJK included.
import { spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DesktopComputer } from "../../src/computers/desktop/desktop-computer.ts";
import { VirtualDisplay } from "../../src/computers/desktop/virtual-display.ts";
import { imageSize } from "../../src/perception/image-size.ts";
import { fileText } from "../support/terminal.ts";

let display: VirtualDisplay;
let desktop: DesktopComputer;
beforeAll(async () => {
  display = await VirtualDisplay.start({ width: 1280, height: 800, windowManager: "openbox" });
  desktop = await DesktopComputer.open({ display: display.name, jpegQuality: 80, liveFps: 10, minIntervalMs: 0 });
});
afterAll(async () => {
  await desktop?.close();
  await display?.close();
});

describe("the desktop computer", () => {
  it("captures the whole screen as a JPEG of its size", async () => {
    const shot = await desktop.screenshot();
    expect(shot).toMatchObject({ mimeType: "image/jpeg", width: 1280, height: 800 });
    expect(imageSize(shot.data)).toEqual({ width: 1280, height: 800 });
  });

  it("types any text into a real program: symbols, accents and CJK", async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), "easyagentcu-desktop-")), "typed.txt");
    const text = "Hello, World! 你好 @#$%^&*() déjà vu ~`|\\{}<>?\"':;";
    display.run("xterm", ["-geometry", "100x20+0+0", "-e", "sh", "-c", `cat > '${file}'`]);
    // The window manager gives the terminal the focus once it is up; its title is the command it runs.
    let focused = await desktop.activeWindow();
    for (let i = 0; i < 100 && focused?.app !== "XTerm"; i++) focused = await new Promise((resolve) => setTimeout(resolve, 100)).then(() => desktop.activeWindow());
    expect(focused).toEqual({ title: "sh", app: "XTerm" });
    await desktop.click(200, 100);
    await desktop.type(`${text}\n`);
    await desktop.keypress(["ctrl", "d"]);
    expect(await fileText(file, (typed) => typed === `${text}\n`)).toBe(`${text}\n`);
  });

  it("moves the pointer where it is told, and refuses a point off the screen", async () => {
    await desktop.move(640, 400);
    expect(await desktop.cursorPosition()).toEqual({ x: 640, y: 400 });
    await expect(desktop.click(1280, 10)).rejects.toThrow("(1280, 10) is outside the 1280×800 screen.");
    await expect(desktop.navigate()).rejects.toMatchObject({ code: "ACTION_FAILED" });
  });

  it("selects a line with a triple click and holds a key down for as long as it is told", async () => {
    const window = spawn("/usr/bin/python3", [path.join(import.meta.dirname, "../fixtures/desktop/lines.py")], { env: { ...process.env, DISPLAY: display.name }, stdio: ["ignore", "pipe", "inherit"] });
    try {
      const said: string[] = [];
      createInterface({ input: window.stdout }).on("line", (line) => said.push(line));
      const heard = async (test: (line: string) => boolean) => {
        await expect.poll(() => said.find(test), { timeout: 15_000 }).toBeDefined();
        return said.find(test)!;
      };
      const line = JSON.parse(await heard((l) => l.startsWith("{"))) as { x: number; y: number; height: number };
      await desktop.click(line.x + 30, line.y + Math.round(line.height / 2), "left", 3);
      await heard((l) => l === "selected Alpha beta gamma");
      await desktop.holdKeys(["shift"], 600);
      expect(await heard((l) => l.startsWith("held Shift"))).toMatch(/^held Shift_[LR] (5|6|7)00$/);
    } finally {
      window.kill();
    }
  });

  it("keeps the minimum interval between inputs", async () => {
    const paced = await DesktopComputer.open({ display: display.name, jpegQuality: 80, liveFps: 1, minIntervalMs: 200 });
    try {
      const started = performance.now();
      for (const x of [100, 200, 300]) await paced.move(x, 300);
      expect(performance.now() - started).toBeGreaterThanOrEqual(400);
    } finally {
      await paced.close();
    }
  });

  it("stops at its next input when a person moved the pointer to the top-left corner (the fail-safe)", async () => {
    await desktop.move(500, 500);
    const person = await DesktopComputer.open({ display: display.name, jpegQuality: 80, liveFps: 1, minIntervalMs: 0 });
    try {
      await person.move(0, 0);
      await expect(desktop.click(500, 500)).rejects.toMatchObject({ name: "StopRequested", reason: "the pointer was moved to the top-left corner of the screen (the fail-safe)" });
      // The computer's own move to the corner is no such signal.
      await person.move(300, 300);
      await desktop.move(0, 0);
      await desktop.move(10, 10);
    } finally {
      await person.close();
    }
  });

  it("sends live frames while watched", async () => {
    const frames: number[] = [];
    const stop = desktop.onLiveFrame((frame) => frames.push(frame.width));
    for (let i = 0; i < 50 && frames.length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    stop();
    expect(frames.length).toBeGreaterThanOrEqual(3);
    expect(new Set(frames)).toEqual(new Set([1280]));
  });
});
