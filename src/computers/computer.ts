// The Computer interface of seed 000 §3.4.2, shared by every kind of computer (browser, desktop,
// extension). Coordinates are pixels of the screenshot the computer returns; each implementation
// maps them to its own input space through perception/coordinates.
import type { Risk } from "../core/approval-policy.ts";
import type { Verdict } from "../core/network-policy.ts";
import type { Progress } from "../core/progress.ts";
import type { Size } from "../perception/coordinates.ts";
import type { UiElement } from "../perception/elements.ts";
import type { PageView, ViewRequest } from "../perception/page-view/view.ts";
import type { Screenshot } from "../perception/screenshot.ts";

export type { Screenshot };
import type { EffectSeen, ElementTarget, MOUSE_BUTTONS, RefAction } from "../protocol/index.ts";

export type MouseButton = (typeof MOUSE_BUTTONS)[number];

export interface Point {
  x: number;
  y: number;
}

/** What a computer can tell an action set off that its screen need not show. */
export type QuietEffect = Extract<EffectSeen, "download" | "new_tab" | "dialog" | "navigation" | "request">;

export interface StructuralEffect {
  /** DOM mutations (nodes, attributes, text) and form-control changes since the watch began. */
  mutations: number;
  scrolled: boolean;
  /**
   * Since the watch began, each kind once, most telling first: a download, a page or window that
   * opened, a dialog, a navigation (or a window's new title), a request that changes something.
   */
  quiet: QuietEffect[];
}

/** A hit test after the pointer moved: on the held element, and the element's centre now (null when it is gone from view). */
export interface HitTest {
  onTarget: boolean;
  now: Point | null;
}

/** A frame of the live view: cheaper and smaller than a step screenshot. */
export type LiveFrameListener = (frame: Screenshot) => void;

export type { ElementTarget, RefAction };

export type { Risk };

/** An element named by ARIA ref, by a recorded target, by point (screenshot pixels), or the one that has focus. */
export type ElementQuery = { ref: string } | { target: ElementTarget } | { x: number; y: number } | "focused";

/** A frame of another origin than its page's, which holds an element: its origin, and the element's box (screenshot pixels). */
export interface ForeignFrame {
  origin: string;
  box: ElementTarget["box"];
}

export interface ReadabilityResult {
  title?: string;
  /** Absent when the text was too long to return inline: it is stored as `artifactId`. */
  text?: string;
  /** UTF-8 bytes of the whole text. */
  contentLengthBytes: number;
  truncated: boolean;
  artifactId?: string;
}

/**
 * A tool the page declares for agents (WebMCP), as it describes itself: its words are the page's.
 * `inputSchema`: the JSON Schema of its input, null when it gave none; `readOnly`: it says it
 * changes nothing (`annotations.readOnlyHint`).
 */
export interface PageTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown> | null;
  readOnly: boolean;
}

/**
 * What only a browser can do: read the page's structure and act on elements by reference (the
 * tool agent of seed 001 §12, the page actions of seed 004 §4.2). Points are screenshot pixels.
 */
export interface BrowserPage {
  /**
   * The page as a model reads it (perception/page-view): its ARIA tree with element refs
   * (`[ref=e5]`), iframes and open shadow roots included, within a budget of tokens; the request
   * picks a part, a section or a search.
   */
  view(request?: ViewRequest): Promise<PageView & { url: string }>;
  /**
   * The element a ref of the latest ARIA tree names, scrolled into view, as a target with its box;
   * `coveredBy` says what covers its centre (a click there would land on that), null when nothing.
   */
  locate(ref: string): Promise<{ target: ElementTarget; coveredBy: string | null }>;
  /** Acts on the element a ref of the latest ARIA tree names. */
  actOnRef(ref: string, action: RefAction): Promise<ElementTarget>;
  /**
   * A recorded element as it is now (by its locator code, else its XPath) with its box; `scroll`
   * brings it wholly into view first. Null when it is gone.
   */
  findTarget(target: ElementTarget, options: { scroll: boolean }): Promise<ElementTarget | null>;
  /** Acts on a recorded element found by {@link findTarget}. */
  actOnTarget(target: ElementTarget, action: RefAction): Promise<void>;
  /** The article text of the page (Readability); long texts are stored through `saveArtifact`. */
  readability(saveArtifact: (text: string) => Promise<string>): Promise<ReadabilityResult>;
  /** False when the page had not finished loading within the time. */
  waitForLoad(timeoutMs: number): Promise<boolean>;
  /** False when the text did not appear within the time. */
  waitForText(text: string, timeoutMs: number): Promise<boolean>;
  goBack(): Promise<void>;
  /** Scrolls the page by a share of the viewport; says how far it moved. */
  scrollBy(direction: "up" | "down" | "left" | "right", percentage: number): Promise<{ scrolledPixels: number }>;
  /** Presses at a point, holds, and releases. */
  holdAt(x: number, y: number, ms: number): Promise<void>;
  /** The element under a point, as a target that replay can find again. */
  targetAt(x: number, y: number): Promise<ElementTarget | null>;
  /**
   * {@link targetAt} in two parts: the element under a point (its XPath and box, no locator code
   * yet), then its locator code read from the page as it is when asked, found by that XPath.
   */
  elementAt(x: number, y: number): Promise<ElementTarget | null>;
  describeTarget(found: ElementTarget): Promise<ElementTarget>;
  /**
   * What a click on the element, Enter in it or typing into it would risk (the approval policy's
   * classes): submitting a form, paying, deleting, sending, a download, leaving the site, a
   * password or payment field. The element is found inside frames and open shadow roots; in a
   * frame of another origin, what it risks is that origin's (the risks carry it).
   */
  risksOf(element: ElementQuery, how: "click" | "enter" | "type"): Promise<Risk[]>;
  /** The frame of another origin than the page's that holds the element; null when the page's own document (or a frame of its origin) does. */
  frameOf(element: ElementQuery): Promise<ForeignFrame | null>;
  /** A download or another site (another origin), for an address about to be opened. */
  risksOfUrl(url: string): Promise<Risk[]>;
  /** The tools the page declares now (computers/browser/page-tools.ts); none on most pages. */
  pageTools(): Promise<PageTool[]>;
  /**
   * Runs one of the page's tools and gives back its answer as text (JSON, or the string it
   * answered); NOT_FOUND for a name the page does not declare, ACTION_FAILED when the tool failed.
   */
  callPageTool(name: string, input: Record<string, unknown>): Promise<string>;
}

/** The network fence of a browser we launched, as the hands see it (computers/browser/fence.ts). */
export interface NetworkGate {
  /** Whether the fence lets the browser open this http(s) address; `local` when only the person's word is missing. */
  judge(url: string): Promise<Verdict>;
  /** Lets the browser open a local or private origin from now on: the person allowed it. */
  permit(origin: string): void;
}

/** One of the message's attachments as a file on the server's disk, ready to be uploaded. */
export interface UploadFile {
  /** The attachment's name, as the person sent it and the model names it. */
  name: string;
  path: string;
  mimeType: string;
}

/**
 * A file that began to come to the computer while its task ran: a download of its browser, a new
 * file in its desktop's downloads folder.
 */
export interface IncomingFile {
  /** The name it came with (the page's suggested name, the file's name in the folder), not yet made safe. */
  name: string;
  /**
   * Writes it to `target` once it has all come. One that grows past `maxBytes` is given up as soon
   * as that is known (a download is cancelled) and nothing is left at `target`.
   */
  saveAs(target: string, maxBytes: number): Promise<SavedFile>;
}

/** How saving an incoming file went: kept (its size), too large (the bytes that had come), or failed (why). */
export type SavedFile = { type: "kept"; size: number } | { type: "too_large"; size: number } | { type: "failed"; reason: string };

/** A desktop's focused window as the model and the person are told it. */
export interface ActiveWindow {
  title: string;
  /** The application, as its window class names it (`XTerm`, `Mousepad`). */
  app: string;
}

/** A tab of the agent's own browser, as the model and the person are told it. */
export interface TabInfo {
  /** `tab_1`, `tab_2`…: numbered as the tabs opened, never reused within the task. */
  id: string;
  title: string;
  url: string;
  /** The tab every action, capture and live frame uses. */
  active: boolean;
}

/**
 * The tabs of a browser of the task's own (not a person's Chrome, not the extension's one tab).
 * Each operation changes which page is the screen, so it is done through the hands.
 */
export interface BrowserTabs {
  list(): Promise<TabInfo[]>;
  /** Opens a tab, active at once, at `url` by the browser's own navigation (the fence's, as every address). */
  open(url: string | null): Promise<TabInfo>;
  /** Makes a tab the active one; INVALID_TARGET for an id no open tab has. */
  switchTo(id: string): Promise<TabInfo>;
  /** Closes a tab (the one active before it takes over when it was active); ACTION_FAILED for the last one. */
  close(id: string): Promise<TabInfo[]>;
}

/** Who drives the screen: the agent, the person, or nobody while the task waits for a decision. */
export type ScreenHolder = "agent" | "person" | "nobody";

export interface Computer {
  readonly kind: "browser" | "desktop" | "extension";
  /** A fenced browser's network gate; absent where nothing fences the computer (a browser attached over CDP). */
  readonly gate?: NetworkGate;
  /** Browser computers only: the page's structure and element actions. */
  readonly web?: BrowserPage;
  /** A browser of the task's own: its tabs, to list, open, switch to and close. */
  readonly tabs?: BrowserTabs;
  /**
   * Computers that report no structure (a desktop) take this many changed pixels as an effect,
   * whatever their share of the screen: a typed line is a sliver of a whole desktop.
   */
  readonly minChangedPixels?: number;
  /**
   * How long after a click its effect may still come: a desktop program may draw its answer late,
   * a page may post or download a moment after it settled. A click that showed no effect is
   * looked at again until then, and not tried again before.
   */
  readonly lateEffectMs?: number;
  /**
   * Desktops: whether their programs are kept from EasyAgentCU's server and data dir (a virtual
   * desktop's fence, computers/desktop/desktop-fence.ts). Typing into a terminal on one that is not
   * waits for the person.
   */
  readonly fenced?: boolean;
  /** The input space's size: CSS pixels in a browser, logical pixels on a desktop. */
  readonly logicalSize: Size;
  screenshot(): Promise<Screenshot>;
  /*
   * The actions take the progress of the operation they are part of: one cancelled (Stop, a tool
   * call's deadline) is not started, and one under way stops where it acts — between keystrokes
   * or the steps of a drag, its page's loading stopped — leaving no key or button held. Without
   * one (the person's own input), nothing cancels them.
   */
  move(x: number, y: number, progress?: Progress): Promise<void>;
  /** `count` presses in a row, as the system counts a double or triple click (a triple click selects a line). */
  click(x: number, y: number, button?: MouseButton, count?: number, progress?: Progress): Promise<void>;
  doubleClick(x: number, y: number, progress?: Progress): Promise<void>;
  drag(from: Point, to: Point, progress?: Progress): Promise<void>;
  type(text: string, progress?: Progress): Promise<void>;
  keypress(keys: string[], progress?: Progress): Promise<void>;
  /** The chord held down for `ms`, then released in reverse, whatever happens meanwhile. */
  holdKeys(keys: string[], ms: number, progress?: Progress): Promise<void>;
  /** Wheel at a point; the amounts are screenshot pixels too (positive y scrolls down). */
  scroll(x: number, y: number, scrollX: number, scrollY: number, progress?: Progress): Promise<void>;
  cursorPosition(): Promise<Point>;
  currentUrl(): Promise<string | null>;
  /** Browser computers only; others throw ACTION_FAILED. */
  navigate(url: string, progress?: Progress): Promise<void>;
  /** Waits, within a cap, until what the last action started has settled. */
  settle(): Promise<void>;
  /**
   * Computers that see their content's structure (a browser's DOM, a desktop's windows) report
   * what an action changed there: call before acting, await the returned function after settling;
   * called again later, it tells what has happened since the same start.
   */
  watchStructure?(): Promise<() => Promise<StructuralEffect>>;
  /**
   * Computers that know what is under a point (a browser's DOM) can confirm a click target
   * without a model: remembers the element at (x, y) now, or `element` when the click is meant
   * for a known one; the returned check, called after the pointer has moved there, says whether
   * that element is under it, unmoved, and where it is now.
   */
  holdTarget?(x: number, y: number, element?: ElementTarget): Promise<() => Promise<HitTest>>;
  /** Desktops: the window that has the focus, its title and its application; null when none has. */
  activeWindow?(): Promise<ActiveWindow | null>;
  /** The interactive elements on screen, numbered, boxes in screenshot pixels (Set-of-Mark). */
  elements?(): Promise<UiElement[]>;
  /**
   * Computers without a page's structure (a desktop): the caption of the control, or the words, at
   * a point of the screenshot, read from its pixels, so that a click there is classified by what it
   * presses; null when nothing readable is there.
   */
  labelAt?(x: number, y: number): Promise<string | null>;
  /**
   * Computers that can read their page's text from its structure (a browser's DOM): for each of
   * `texts`, whether the page holds it (its text, field values, attributes, address), letter case aside.
   */
  pageShows?(texts: readonly string[]): Promise<boolean[]>;
  /**
   * Computers with a page (a browser): the value of a JavaScript expression in the active page,
   * awaited when it is a promise. Never offered to the model: an evaluation reads its task's end with it.
   */
  evaluate?(expression: string): Promise<unknown>;
  /**
   * Computers that show the person who has the screen (the extension's overlay in their own tab):
   * told when the person takes it (a takeover, a request to act), when nobody drives it (the task
   * waits for a decision on an approval) and when the agent has it again.
   */
  handOver?(to: ScreenHolder): Promise<void>;
  /**
   * Computers that can hand a file to what they show: puts it into the file input at a point
   * (screenshot pixels), or, without one, into the file chooser or file dialog open now. Throws
   * ACTION_FAILED, saying what to do instead, when nothing there takes a file.
   */
  upload?(file: UploadFile, at: Point | null, progress?: Progress): Promise<void>;
  /**
   * Computers that receive files (our own browser's downloads, a virtual desktop's downloads
   * folder): `listener` hears each as it begins to arrive. Returns a function that stops.
   */
  receiveFiles?(listener: (file: IncomingFile) => void): () => void;
  /** Starts delivering live frames; returns a function that stops them. */
  onLiveFrame(listener: LiveFrameListener): () => void;
  close(): Promise<void>;
}
