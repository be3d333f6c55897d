// The built-in pixel detector (seed 002 §2.4, offline on the CPU): outlines and glyph groups from
// the edge map, controls from the outlines, and text read by OCR — a control's own text and the
// label that names it first, whatever they cost, then short texts, then long lines, for as long as
// the OCR budget lasts from when the regions are known (what is left unread is read on a later
// look, once its turn comes before the budget runs out). The detections come out
// in order of importance: controls and icons (with the text that names them), then read text,
// then text not read yet.
import { labelComponents } from "./components.ts";
import { controlsFrom, type Control } from "./controls.ts";
import type { Detection } from "./detection.ts";
import { edgeMap } from "./edges.ts";
import { findFrames } from "./frames.ts";
import { union } from "./geometry.ts";
import { groupGlyphs, type GlyphGroup } from "./glyph-groups.ts";
import { withoutLines } from "./lines.ts";
import type { Raster } from "./raster.ts";
import type { TextRecognizer } from "./recognizer.ts";

export interface DetectorOptions {
  /** How long OCR may take on one screen, in ms from when the regions to read are known; the controls' own text is read whatever it costs. */
  ocrBudgetMs: number;
  /** The elements the list will keep: texts that could not make it are not read. */
  maxElements: number;
}

/** Colour steps smaller than this (0–255, any channel) are shading, not an edge. */
const EDGE_THRESHOLD = 20;
/** Readings less sure than this are not text (an icon, a texture). */
const MIN_CONFIDENCE = 0.5;
/** Texts at most this wide are read before longer lines: labels, menu items, links. */
const SHORT_TEXT_PX = 240;

/** Where the controls, icons and texts of an image are, before any is read: the work before OCR. */
export function findRegions(image: Raster): { controls: Control[]; groups: GlyphGroup[] } {
  const mask = edgeMap(image, EDGE_THRESHOLD);
  const labelling = labelComponents(mask, image.width, image.height);
  const frames = findFrames(labelling, image.width);
  const outlines = new Set(frames.map((f) => f.component.label));
  const shapes = labelling.components.flatMap((c) => withoutLines(labelling, image.width, c, outlines.has(c.label)));
  const groups = groupGlyphs(shapes, mask, image.width, frames.map((f) => f.box));
  return { controls: controlsFrom(frames, groups, image), groups };
}

export async function detect(image: Raster, recognizer: TextRecognizer, options: DetectorOptions): Promise<Detection[]> {
  const { controls, groups } = findRegions(image);
  const owned = new Set(controls.flatMap((c) => c.inside));
  const free = groups.filter((g) => !owned.has(g));
  const icons = free.filter((g) => g.kind === "icon");
  const iconLabels = labelIcons(icons, free.filter((g) => g.kind === "text"));
  // A control's label — a checkbox's, a radio button's, an icon's, a field's, a list's or a
  // slider's caption — names it, and is read with the controls' own text whatever it costs.
  const labels = [...controls.flatMap((c) => ((c.kind === "checkbox" || c.kind === "radio") && c.beside ? [c.beside] : [])), ...iconLabels.values()];
  const partOf = new Set(labels);
  const captions = [...new Set(controls.flatMap((c) => (c.kind !== "checkbox" && c.kind !== "radio" && c.beside ? [c.beside] : [])))];
  const rank = (g: GlyphGroup) => (g.box.width <= SHORT_TEXT_PX ? 0 : 1);
  const freeText = free.filter((g) => g.kind === "text" && !partOf.has(g)).sort((a, b) => rank(a) - rank(b) || a.box.y - b.box.y || a.box.x - b.box.x);
  // Only as many free texts as can still make the list are worth reading.
  const room = Math.max(0, options.maxElements - controls.length - icons.length);
  const always = [...controls.flatMap((c) => c.inside.filter((g) => g.kind === "text")), ...labels, ...captions];
  const toRead = [...always, ...freeText.filter((g) => !captions.includes(g)).slice(0, room)];
  // The budget is OCR's own, counted from when the regions are known: on a busy machine finding
  // them may take longer than the whole budget, and reading must not pay for it.
  const found = await recognizer.read(image, toRead.map((g) => g.box), { deadline: performance.now() + options.ocrBudgetMs, always: always.length });
  const readings = new Map(toRead.map((g, i) => [g, found[i]!]));
  const textOf = (g: GlyphGroup | null) => {
    const reading = g ? readings.get(g) : null;
    return reading && reading.confidence >= MIN_CONFIDENCE ? reading.text : "";
  };

  const read: Detection[] = [];
  const unread: Detection[] = [];
  for (const g of freeText) {
    const reading = readings.get(g);
    if (!reading) unread.push({ kind: "text", label: "", box: g.box });
    else if (textOf(g)) read.push({ kind: "text", label: reading.text, box: g.box });
  }
  const iconDetections = icons.map((icon): Detection => {
    const label = iconLabels.get(icon);
    return { kind: "icon", label: textOf(label ?? null), box: label ? union(icon.box, label.box) : icon.box };
  });
  return [...controls.flatMap((c) => controlDetections(c, textOf)), ...iconDetections, ...read, ...unread];
}

/**
 * The text that names an icon, as a file manager, a desktop or a menu lays them out: centred just
 * below it, or on its row just right of it.
 */
function labelIcons(icons: GlyphGroup[], texts: GlyphGroup[]): Map<GlyphGroup, GlyphGroup> {
  const labels = new Map<GlyphGroup, GlyphGroup>();
  const taken = new Set<GlyphGroup>();
  for (const icon of icons) {
    const { x, y, width, height } = icon.box;
    const middle = x + width / 2;
    const below = texts.find(
      (t) => !taken.has(t) && t.box.y >= y + height && t.box.y - (y + height) <= height / 2 && Math.abs(t.box.x + t.box.width / 2 - middle) <= width / 2 && t.box.width <= 4 * width,
    );
    const right = texts.find(
      (t) => !taken.has(t) && t.box.x >= x + width && t.box.x - (x + width) <= height / 2 && Math.abs(t.box.y + t.box.height / 2 - (y + height / 2)) <= height / 3,
    );
    const label = below ?? right;
    if (label) {
      labels.set(icon, label);
      taken.add(label);
    }
  }
  return labels;
}

function controlDetections(control: Control, textOf: (g: GlyphGroup | null) => string): Detection[] {
  const inside = control.inside
    .filter((g) => g.kind === "text")
    .sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x)
    .map(textOf)
    .filter(Boolean)
    .join(" ");
  switch (control.kind) {
    case "checkbox":
    case "radio":
      // The label is part of the control: clicking it ticks the box in every toolkit.
      return [{ kind: control.kind, label: textOf(control.beside), box: control.beside ? union(control.box, control.beside.box) : control.box }];
    case "textbox":
      return [{ kind: "textbox", label: inside || textOf(control.beside), box: control.box }];
    case "listbox": {
      // Each item is as wide as the list inside its border, where a click selects it.
      const { x, width } = control.box;
      const items = control.inside.map((line): Detection => ({ kind: "option", label: textOf(line), box: { x: x + 2, y: line.box.y, width: width - 4, height: line.box.height } }));
      return [{ kind: "listbox", label: textOf(control.beside), box: control.box }, ...items];
    }
    case "slider":
      return [{ kind: "slider", label: textOf(control.beside), box: control.box }];
    case "button":
      return [{ kind: "button", label: inside, box: control.box }];
  }
}
