// The native desktop (nut-js over libnut) run where this machine can run it: libnut's X11 backend
// on a real Xvfb. The product drives it on Windows and macOS only (a Linux desktop is the X11
// computer, which types any text); this proves its capture, pointer, keys, scrolling and typing
// paths on a real screen. libnut's X11 typing presses Shift for capitals only: a shifted symbol
// comes out as its unshifted key ("!" as "1"), so the text typed here has none.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NativeComputer } from "../../src/computers/desktop/native/native-computer.ts";
import { VirtualDisplay } from "../../src/computers/desktop/virtual-display.ts";
import { imageSize } from "../../src/perception/image-size.ts";
import { fileText } from "../support/terminal.ts";

let display: VirtualDisplay;
let desktop: NativeComputer;
beforeAll(async () => {
  display = await VirtualDisplay.start({ width: 1280, height: 800, windowManager: "openbox" });
  // libnut opens the display X11 names in the environment, as a program on that screen would.
  process.env.DISPLAY = display.name;
  desktop = await NativeComputer.open({ jpegQuality: 80, liveFps: 5, minIntervalMs: 0 }, "linux");
});
afterAll(async () => {
  await desktop?.close();
  await display?.close();
});

describe("the native desktop on X11", () => {
  it("measures the screen and captures it whole", async () => {
    expect(desktop.logicalSize).toEqual({ width: 1280, height: 800 });
    const shot = await desktop.screenshot();
    expect(shot).toMatchObject({ mimeType: "image/jpeg", width: 1280, height: 800 });
    expect(imageSize(shot.data)).toEqual({ width: 1280, height: 800 });
  });

  it("moves the pointer where it is told and refuses a point off the screen", async () => {
    await desktop.move(640, 400);
    expect(await desktop.cursorPosition()).toEqual({ x: 640, y: 400 });
    await expect(desktop.click(1280, 10)).rejects.toThrow("(1280, 10) is outside the 1280×800 screen.");
  });

  it("clicks into a real program, types into it, and presses a chord", async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), "easyagentcu-native-")), "typed.txt");
    const text = "Hello World 42 nut-was-here/typed.";
    display.run("xterm", ["-geometry", "100x20+0+0", "-e", "sh", "-c", `cat > '${file}'`]);
    let focused = await desktop.activeWindow();
    for (let i = 0; i < 100 && !focused?.title.includes("sh"); i++) focused = await new Promise((resolve) => setTimeout(resolve, 100)).then(() => desktop.activeWindow());
    await desktop.click(200, 100);
    await desktop.type(`${text}\n`);
    await desktop.keypress(["ctrl", "d"]);
    expect(await fileText(file, (typed) => typed === `${text}\n`)).toBe(`${text}\n`);
  });

  it("scrolls a real program's view", async () => {
    display.run("xterm", ["-geometry", "60x10+300+300", "-sl", "500", "-e", "sh", "-c", "seq 1 400; sleep 60"]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await desktop.settle();
    const before = await desktop.screenshot();
    // Nothing on this screen moves by itself: a change after the scroll is the scroll's.
    expect((await desktop.screenshot()).data.equals(before.data)).toBe(true);
    await desktop.scroll(500, 380, 0, -600);
    await desktop.settle();
    const after = await desktop.screenshot();
    expect(after.data.equals(before.data)).toBe(false);
  });
});
