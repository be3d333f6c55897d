// Zooming the focus view's screen: about the pinch's point, never past its box.
import { describe, expect, it } from "vitest";
import { MAX_SCALE, NO_ZOOM, panBy, zoomAt } from "./zoom.ts";

describe("zoom", () => {
  it("keeps the point under the fingers where it was", () => {
    const zoom = zoomAt(NO_ZOOM, 2, 100, 50, 400, 200);
    expect(zoom).toEqual({ scale: 2, x: -100, y: -50 });
    // Image point (100, 50) is at 100 + 2·(-100)… i.e. still under (100, 50): x + 2·100 = 100.
    expect(zoom.x + 2 * 100).toBe(100);
  });

  it("stays between 1× and the most, and never uncovers the box", () => {
    expect(zoomAt(NO_ZOOM, 0.5, 10, 10, 400, 200)).toEqual(NO_ZOOM);
    expect(zoomAt(NO_ZOOM, 100, 0, 0, 400, 200).scale).toBe(MAX_SCALE);
    const zoom = zoomAt(NO_ZOOM, 2, 0, 0, 400, 200);
    expect(panBy(zoom, 50, 50, 400, 200)).toEqual({ scale: 2, x: 0, y: 0 });
    expect(panBy(zoom, -1000, -1000, 400, 200)).toEqual({ scale: 2, x: -400, y: -200 });
  });
});
