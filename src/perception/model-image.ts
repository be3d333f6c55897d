// Prepares the image a model sees: the screenshot as captured when it fits the model's preferred
// size, else scaled down (aspect kept) and re-encoded. The spaces it returns let every point the
// model names be mapped back through perception/coordinates.
import sharp from "sharp";
import type { Screenshot } from "./screenshot.ts";
import { fitWithin, type Size, type Spaces } from "./coordinates.ts";

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
