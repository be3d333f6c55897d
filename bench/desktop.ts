// What the desktop computer costs on a virtual X server (issue 13's targets in brackets): a
// full-screen capture as the raw pixels and as the JPEG a step stores [≤ 10 ms], one input event
// with its round trip [≤ 10 ms], typing [≥ 100 characters a second] — plain ASCII and accents as
// keys, CJK as one paste from the clipboard (so its rate grows with the run's length; a run of two
// characters gives the cost of one paste), and text that alternates the two — and live frames a
// second at LIVE_FPS 10. Writes bench/results/desktop.json beside printing the figures.
import { DesktopComputer } from "../src/computers/desktop/desktop-computer.ts";
import { VirtualDisplay } from "../src/computers/desktop/virtual-display.ts";
import { X11Session } from "../src/computers/desktop/x11-session.ts";
import { median, quantile, timed, writeResult } from "./measure.ts";

const RUNS = 20;
const results: Record<string, object> = {};

for (const [width, height] of [[1280, 800], [1920, 1080]] as const) {
  const display = await VirtualDisplay.start({ width, height, windowManager: "openbox" });
  display.run("xterm", ["-geometry", "120x40+0+0", "-e", "sh", "-c", "cat > /dev/null"]);
  await new Promise((resolve) => setTimeout(resolve, 800));
  const desktop = await DesktopComputer.open({ display: display.name, jpegQuality: 80, liveFps: 10, minIntervalMs: 0 });
  const x = await X11Session.connect(display.name);
  try {
    const raw = await timeEach(() => x.capture());
    const jpeg = await timeEach(() => desktop.screenshot());
    const input = await timeEach(() => desktop.move(100 + Math.random() * 500, 100 + Math.random() * 300));
    await desktop.click(300, 100);
    const texts = {
      ascii: "The quick brown fox jumps over the lazy dog 0123456789 ".repeat(4),
      accents: "déjà vu naïve café Ærøskøbing ".repeat(4),
      cjk: "你好世界，这是一次打字的测试。".repeat(4),
      mixed: "déjà vu 你好世界 naïve café ".repeat(2),
    };
    const typing: Record<string, number> = {};
    for (const [name, text] of Object.entries(texts)) typing[`typing_${name}_chars_per_s`] = Math.round([...text].length / ((await timed(() => desktop.type(text))) / 1000));
    const paste = await timeEach(() => desktop.type("你好"));
    let frames = 0;
    const stop = desktop.onLiveFrame(() => frames++);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    stop();
    const figures = {
      capture_raw_ms: median(raw),
      capture_raw_p90_ms: quantile(raw, 0.9),
      capture_jpeg_ms: median(jpeg),
      capture_jpeg_p90_ms: quantile(jpeg, 0.9),
      input_event_ms: median(input),
      ...typing,
      paste_run_ms: median(paste),
      live_fps: frames / 2,
    };
    console.log(`desktop ${width}×${height}`, JSON.stringify(figures));
    results[`${width}x${height}`] = figures;
  } finally {
    x.close();
    await desktop.close();
    await display.close();
  }
}

console.log(`written to ${await writeResult("desktop", results)}`);

async function timeEach(work: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await timed(work));
  return times;
}
