// What Set-of-Mark from pixels costs on a virtual X server, and what it finds: the built-in
// detector on the whole screen — the Tk window with a control of every kind (test/fixtures/desktop/
// controls.py) beside a terminal full of text — at 1280×800 and 1920×1080, median of 10: finding
// the regions alone (edges, outlines, glyph groups and controls, before any OCR: what OmniParser's
// YOLO pass stands for); the whole look cold (no reading remembered, as after a start or on a new
// screen) and warm (the same screen again, as the next step sees it); drawing the numbered overlay;
// and the window's recall: its controls marked with their kind and label, and marks of a control's
// kind on its plain text. Prints the machine's load average beside the figures: the host may be
// busy with other work.
import { loadavg } from "node:os";
import { DesktopComputer } from "../src/computers/desktop/desktop-computer.ts";
import { VirtualDisplay } from "../src/computers/desktop/virtual-display.ts";
import { X11Session } from "../src/computers/desktop/x11-session.ts";
import { SOM_DEFAULTS } from "../src/core/config.ts";
import { drawMarks, type UiElement } from "../src/perception/elements.ts";
import { findRegions } from "../src/perception/pixels/detector.ts";
import { area, center, contains, intersection, type Box } from "../src/perception/pixels/geometry.ts";
import { rasterFromBgrx } from "../src/perception/pixels/raster.ts";
import { TextRecognizer } from "../src/perception/pixels/recognizer.ts";
import { openControlsWindow } from "../test/fixtures/desktop/controls-window.ts";
import { median, timed } from "./measure.ts";

const RUNS = 10;

/** The marks whose centre is on the box and that lie mostly inside it. */
const marksOn = (elements: UiElement[], box: Box) =>
  elements.filter((e) => contains(box, { ...center(e.box), width: 0, height: 0 }, 1) && intersection(e.box, box) >= 0.6 * area(e.box));

const recognizer = await TextRecognizer.shared();
for (const [width, height] of [[1280, 800], [1920, 1080]] as const) {
  const display = await VirtualDisplay.start({ width, height, windowManager: "openbox" });
  display.run("xterm", ["-geometry", "80x30+700+60", "-e", "sh", "-c", "ls -la /usr/share; exec cat > /dev/null"]);
  const window = await openControlsWindow(display.name, "+20+20");
  await new Promise((resolve) => setTimeout(resolve, 800));
  const desktop = await DesktopComputer.open({ display: display.name, jpegQuality: 80, liveFps: 1, minIntervalMs: 0 });
  const x = await X11Session.connect(display.name);
  try {
    const image = rasterFromBgrx(await x.capture(), width, height);
    const regions: number[] = [];
    for (let i = 0; i < RUNS; i++) regions.push(await timed(async () => findRegions(image)));
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
    const marked = window.controls.filter((c) => marksOn(elements, c.box).some((e) => e.kind === c.kind));
    const labelled = window.controls.filter((c) => marksOn(elements, c.box).some((e) => e.kind === c.kind && e.label === c.label));
    const falseMarks = window.plain.flatMap((t) => marksOn(elements, t.box).filter((e) => e.kind !== "text"));
    const figures = {
      regions_ms: median(regions),
      detect_cold_ms: median(cold),
      detect_warm_ms: median(warm),
      draw_marks_ms: median(marks),
      ocr_budget_ms: SOM_DEFAULTS.ocrBudgetMs,
      elements: elements.length,
      controls: window.controls.length,
      control_recall: marked.length / window.controls.length,
      label_recall: labelled.length / window.controls.length,
      false_marks_on_plain_text: falseMarks.length,
      load_average_1min: Math.round(loadavg()[0]! * 10) / 10,
    };
    console.log(`pixel set-of-mark ${width}×${height}`, JSON.stringify(figures));
  } finally {
    x.close();
    window.close();
    await desktop.close();
    await display.close();
  }
}
