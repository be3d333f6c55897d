// Carries out one resolved action on a computer: every point is already in screenshot pixels
// (perception/resolve.ts). A retried click adds its jitter here, kept inside the screen.
import type { Computer, UploadFile } from "../computers/computer.ts";
import { AppError } from "../core/errors.ts";
import type { Progress } from "../core/progress.ts";
import type { Point, Size } from "../perception/coordinates.ts";
import type { ScreenAction } from "../perception/resolve.ts";

export async function execute(
  action: ScreenAction,
  computer: Computer,
  screen: Size,
  progress: Progress,
  /** Added to the action's point, in screenshot pixels (the jitter of a retried click). */
  offset: Point = { x: 0, y: 0 },
  /** An upload's file, found by the hands from its attachment's name. */
  file: UploadFile | null = null,
): Promise<void> {
  const at = (x: number, y: number): Point => ({ x: clamp(x + offset.x, screen.width), y: clamp(y + offset.y, screen.height) });
  switch (action.type) {
    case "click": {
      const p = at(action.args.x, action.args.y);
      return computer.click(p.x, p.y, action.args.button, 1, progress);
    }
    case "double_click": {
      const p = at(action.args.x, action.args.y);
      return computer.doubleClick(p.x, p.y, progress);
    }
    case "triple_click": {
      const p = at(action.args.x, action.args.y);
      return computer.click(p.x, p.y, "left", 3, progress);
    }
    case "right_click": {
      const p = at(action.args.x, action.args.y);
      return computer.click(p.x, p.y, "right", 1, progress);
    }
    case "move": {
      const p = at(action.args.x, action.args.y);
      return computer.move(p.x, p.y, progress);
    }
    case "drag":
      return computer.drag(at(action.args.x, action.args.y), at(action.args.end_x, action.args.end_y), progress);
    case "scroll": {
      const p = at(action.args.x, action.args.y);
      return computer.scroll(p.x, p.y, action.args.scroll_x, action.args.scroll_y, progress);
    }
    case "type":
      return computer.type(action.args.text, progress);
    case "keypress":
      return computer.keypress(action.args.keys, progress);
    case "hold_key":
      return computer.holdKeys(action.args.keys, action.args.ms, progress);
    case "wait":
      return progress.sleep(action.args.ms);
    case "navigate":
      return computer.navigate(checkedUrl(action.args.url), progress);
    case "upload": {
      if (!computer.upload) throw new AppError("ACTION_FAILED", `This ${computer.kind} cannot take files: upload works in the server's own browser and on its desktop.`);
      if (!file) throw new AppError("ACTION_FAILED", `The attachment "${action.args.name}" has no file to upload.`);
      const { x, y } = action.args;
      return computer.upload(file, x === undefined || y === undefined ? null : at(x, y), progress);
    }
    default:
      return assertNever(action);
  }
}

function clamp(value: number, size: number): number {
  return Math.min(Math.max(value, 0), size - 1);
}

/** Only web pages: a model must not open `file:` or `javascript:` URLs. */
export function checkedUrl(raw: string): string {
  // `example.com:8080/x` has no scheme; `mailto:x` and `file:///x` do.
  const withScheme = /^[a-z][a-z0-9+.-]*:(\/\/|[^\d])/i.test(raw) ? raw : `${/^(localhost|127\.|\[::1\])/.test(raw) ? "http" : "https"}://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new AppError("ACTION_FAILED", `${JSON.stringify(raw)} is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:" && url.href !== "about:blank") {
    throw new AppError("ACTION_FAILED", `navigate accepts only http(s) URLs, not ${url.protocol}`);
  }
  return url.href;
}

function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}
