// Owns the arithmetic of zooming into the screen in the focus view: a scale and an offset that
// keep the image covering its box, changed by a pinch (or a button) about a point.
export interface Zoom {
  scale: number;
  /** Offset of the scaled image's top-left corner from its box's, in CSS pixels (≤ 0). */
  x: number;
  y: number;
}

export const NO_ZOOM: Zoom = { scale: 1, x: 0, y: 0 };
export const MAX_SCALE = 5;

/** Scales by `factor` about a point of the box (px from its top-left), within 1…MAX_SCALE. */
export function zoomAt(zoom: Zoom, factor: number, px: number, py: number, width: number, height: number): Zoom {
  const scale = Math.min(Math.max(zoom.scale * factor, 1), MAX_SCALE);
  const applied = scale / zoom.scale;
  // The image point under (px, py) stays under it.
  return clampZoom({ scale, x: px - (px - zoom.x) * applied, y: py - (py - zoom.y) * applied }, width, height);
}

/** Moves the zoomed image by (dx, dy) px, never uncovering the box. */
export function panBy(zoom: Zoom, dx: number, dy: number, width: number, height: number): Zoom {
  return clampZoom({ ...zoom, x: zoom.x + dx, y: zoom.y + dy }, width, height);
}

function clampZoom({ scale, x, y }: Zoom, width: number, height: number): Zoom {
  const clamp = (value: number, size: number) => Math.min(0, Math.max(value, size - size * scale));
  return { scale, x: clamp(x, width), y: clamp(y, height) };
}
