// What Set-of-Mark from pixels costs on a virtual X server (issue 13's target in brackets): the
// built-in detector on the whole screen — a Tk window of buttons beside a terminal full of text —
// at 1280×800 and 1920×1080, median of 10 [≤ 0.5 s at 1920×1080 with the numbers drawn]: cold (no
// reading remembered, as after a start or on a new screen) and warm (the same screen again, as the
// next step sees it); drawing the numbered overlay; and its recall on the test window: the buttons
// found with IoU ≥ 0.5, and with their labels read.
import { DesktopComputer } from "../src/computers/desktop/desktop-computer.ts";
import { VirtualDisplay } from "../src/computers/desktop/virtual-display.ts";
import { SOM_DEFAULTS } from "../src/core/config.ts";
import { drawMarks, type UiElement } from "../src/perception/elements.ts";
import { iou, type Box } from "../src/perception/pixels/geometry.ts";
import { TextRecognizer } from "../src/perception/pixels/recognizer.ts";
import { openButtonsWindow } from "../test/fixtures/desktop/buttons-window.ts";
import { median, timed } from "./measure.ts";

const RUNS = 10;

const recognizer = await TextRecognizer.shared();
for (const [width, height] of [[1280, 800], [1920, 1080]] as const) {
  const display = await VirtualDisplay.start({ width, height, windowManager: "openbox" });
  display.run("xterm", ["-geometry", "100x30+560+60", "-e", "sh", "-c", "ls -la /usr/share; exec cat > /dev/null"]);
  const window = await openButtonsWindow(display.name);
  await new Promise((resolve) => setTimeout(resolve, 800));
  const desktop = await DesktopComputer.open({ display: display.name, jpegQuality: 80, liveFps: 1, minIntervalMs: 0 });
  try {
    const cold: number[] = [];
    let elements: UiElement[] = [];
    for (let i = 0; i < RUNS; i++) {
      recognizer.forget();
      const started = performance.now();
      elements = await desktop.elements();
      cold.push(performance.now() - started);
    }
    const warm: number[] = [];
    for (let i = 0; i < RUNS; i++) warm.push(await timed(() => desktop.elements()));
    const shot = await desktop.screenshot();
    const marks: number[] = [];
    for (let i = 0; i < RUNS; i++) marks.push(await timed(() => drawMarks(shot, elements, 80)));
    const targets: [string, Box][] = Object.entries(window.buttons);
    const found = targets.filter(([, box]) => elements.some((e) => iou(e.box, box) >= 0.5));
    const labelled = targets.filter(([name, box]) => elements.some((e) => iou(e.box, box) >= 0.5 && e.label === (name === "Search" ? "" : name)));
    const figures = {
      detect_cold_ms: median(cold),
      detect_warm_ms: median(warm),
      draw_marks_ms: median(marks),
      ocr_budget_ms: SOM_DEFAULTS.ocrBudgetMs,
      elements: elements.length,
      button_recall: found.length / targets.length,
      label_recall: labelled.length / targets.length,
    };
    console.log(`pixel set-of-mark ${width}×${height}`, JSON.stringify(figures));
  } finally {
    window.close();
    await desktop.close();
    await display.close();
  }
}
