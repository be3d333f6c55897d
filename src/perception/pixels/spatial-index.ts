// A uniform grid over the image for finding the shapes near a box without comparing every pair.
import type { Component } from "./components.ts";

const CELL = 32;

export class SpatialIndex<T extends Pick<Component, "x0" | "y0" | "x1" | "y1">> {
  private readonly cells = new Map<number, T[]>();

  constructor(items: Iterable<T>) {
    for (const item of items) this.add(item);
  }

  add(item: T): void {
    for (let cy = Math.floor(item.y0 / CELL); cy <= Math.floor(item.y1 / CELL); cy++) {
      for (let cx = Math.floor(item.x0 / CELL); cx <= Math.floor(item.x1 / CELL); cx++) {
        const key = cy * 65536 + cx;
        const cell = this.cells.get(key);
        if (cell) cell.push(item);
        else this.cells.set(key, [item]);
      }
    }
  }

  /** The items whose bounds meet the area (inclusive bounds), each once. */
  near(x0: number, y0: number, x1: number, y1: number): Set<T> {
    const found = new Set<T>();
    for (let cy = Math.floor(Math.max(0, y0) / CELL); cy <= Math.floor(Math.max(0, y1) / CELL); cy++) {
      for (let cx = Math.floor(Math.max(0, x0) / CELL); cx <= Math.floor(Math.max(0, x1) / CELL); cx++) {
        for (const item of this.cells.get(cy * 65536 + cx) ?? []) {
          if (item.x0 <= x1 && item.x1 >= x0 && item.y0 <= y1 && item.y1 >= y0) found.add(item);
        }
      }
    }
    return found;
  }
}
