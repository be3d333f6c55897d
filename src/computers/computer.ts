// The Computer interface of seed 000 §3.4.2, shared by every kind of computer (browser, desktop,
// extension). Coordinates are pixels of the screenshot the computer returns; each implementation
// maps them to its own input space through perception/coordinates.
import type { Size } from "../perception/coordinates.ts";
import type { UiElement } from "../perception/elements.ts";
import type { Screenshot } from "../perception/screenshot.ts";

export type { Screenshot };
import type { MOUSE_BUTTONS } from "../protocol/index.ts";

export type MouseButton = (typeof MOUSE_BUTTONS)[number];

export interface Point {
  x: number;
  y: number;
}

export interface StructuralEffect {
  /** DOM mutations (nodes, attributes, text) and form-control changes since the watch began. */
  mutations: number;
  navigated: boolean;
  scrolled: boolean;
  /** Network requests the page started since the watch began (a click that sends a form). */
  requests: number;
}

/** A frame of the live view: cheaper and smaller than a step screenshot. */
export type LiveFrameListener = (frame: Screenshot) => void;

export interface Computer {
  readonly kind: "browser" | "desktop" | "extension";
  /** The input space's size: CSS pixels in a browser, logical pixels on a desktop. */
  readonly logicalSize: Size;
  screenshot(): Promise<Screenshot>;
  move(x: number, y: number): Promise<void>;
  click(x: number, y: number, button?: MouseButton): Promise<void>;
  doubleClick(x: number, y: number): Promise<void>;
  drag(from: Point, to: Point): Promise<void>;
  type(text: string): Promise<void>;
  keypress(keys: string[]): Promise<void>;
  /** Wheel at a point; the amounts are screenshot pixels too (positive y scrolls down). */
  scroll(x: number, y: number, scrollX: number, scrollY: number): Promise<void>;
  cursorPosition(): Promise<Point>;
  currentUrl(): Promise<string | null>;
  /** Browser computers only; others throw ACTION_FAILED. */
  navigate(url: string): Promise<void>;
  /** Waits, within a cap, until what the last action started has settled. */
  settle(): Promise<void>;
  /**
   * Computers that see their content's structure (a browser's DOM) report what an action
   * changed there: call before acting, await the returned function after settling.
   */
  watchStructure?(): Promise<() => Promise<StructuralEffect>>;
  /**
   * Computers that know what is under a point (a browser's DOM) can confirm a click target
   * without a model: remembers the element at (x, y) now; the returned check, called after the
   * pointer has moved there, says whether that same element is still under it, unmoved.
   */
  holdTarget?(x: number, y: number): Promise<() => Promise<boolean>>;
  /** The interactive elements on screen, numbered, boxes in screenshot pixels (Set-of-Mark). */
  elements?(): Promise<UiElement[]>;
  /** Starts delivering live frames; returns a function that stops them. */
  onLiveFrame(listener: LiveFrameListener): () => void;
  close(): Promise<void>;
}
