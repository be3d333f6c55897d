// Prepares the image a model sees: the screenshot as captured when it fits the model's preferred
// size, else scaled down (aspect kept) and re-encoded. The spaces it returns let every point the
// model names be mapped back through perception/coordinates. A zoom is a region of the capture at
// its own resolution, for a model that asks to look closer.
import sharp from "sharp";
import type { Screenshot } from "./screenshot.ts";
import { fitWithin, scalePoint, type Size, type Spaces } from "./coordinates.ts";

export interface ModelView {
  image: Screenshot;
  spaces: Spaces;
}

export async function modelView(shot: Screenshot, logical: Size, max: Size, jpegQuality: number): Promise<ModelView> {
  const size = fitWithin(shot, max);
  const screenshot = { width: shot.width, height: shot.height };
  if (size.width === shot.width && size.height === shot.height) {
    return { image: shot, spaces: { model: screenshot, screenshot, logical } };
  }
  const data = await sharp(shot.data).resize(size.width, size.height, { fit: "fill" }).jpeg({ quality: jpegQuality }).toBuffer();
  return { image: { data, mimeType: "image/jpeg", ...size }, spaces: { model: size, screenshot, logical } };
}

/** A box of the model's image: its top-left and bottom-right corners (exclusive). */
export interface ImageRegion {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * The region, named in the pixels of the model's image, cut from the capture at the capture's
 * resolution (more detail than the model's image had wherever it was scaled down), fitted within
 * `max` only when larger.
 */
export async function zoomView(shot: Screenshot, region: ImageRegion, spaces: Spaces, max: Size, jpegQuality: number): Promise<Screenshot> {
  const from = scalePoint({ x: region.x0, y: region.y0 }, spaces.model, spaces.screenshot);
  const to = scalePoint({ x: region.x1, y: region.y1 }, spaces.model, spaces.screenshot);
  const left = Math.min(Math.max(from.x, 0), shot.width - 1);
  const top = Math.min(Math.max(from.y, 0), shot.height - 1);
  const crop = { width: Math.max(1, Math.min(to.x, shot.width) - left), height: Math.max(1, Math.min(to.y, shot.height) - top) };
  const size = fitWithin(crop, max);
  const data = await sharp(shot.data).extract({ left, top, ...crop }).resize(size.width, size.height, { fit: "fill" }).jpeg({ quality: jpegQuality }).toBuffer();
  return { data, mimeType: "image/jpeg", ...size };
}
