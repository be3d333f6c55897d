// Points the model names on the screenshot it saw, mapped back to screenshot pixels through the
// one coordinate module; a point outside that image is refused, never clamped silently.
import { z } from "zod";
import { convert, type Point } from "../perception/coordinates.ts";
import type { ToolContext } from "./tool.ts";

export const pointSchema = z.tuple([z.number(), z.number()]).describe("[x, y] in the pixels of the latest screenshot");

export function toScreen(ctx: ToolContext, [x, y]: [number, number]): Point | string {
  const { model } = ctx.spaces;
  if (x < 0 || y < 0 || x >= model.width || y >= model.height) {
    return `(${x}, ${y}) is outside the ${model.width}×${model.height} screenshot`;
  }
  return convert({ x: Math.round(x), y: Math.round(y) }, ctx.spaces, "model", "screenshot");
}
