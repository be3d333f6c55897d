// Carries out one planner action on a computer. Final actions (done, needs_user) never reach here.
import type { Computer } from "../computers/computer.ts";
import { delay } from "../core/abort.ts";
import { AppError } from "../core/errors.ts";
import type { Action, FinalAction } from "../protocol/index.ts";

export async function execute(action: Exclude<Action, FinalAction>, computer: Computer, signal: AbortSignal): Promise<void> {
  switch (action.type) {
    case "click":
      return computer.click(action.args.x, action.args.y, action.args.button);
    case "double_click":
      return computer.doubleClick(action.args.x, action.args.y);
    case "right_click":
      return computer.click(action.args.x, action.args.y, "right");
    case "move":
      return computer.move(action.args.x, action.args.y);
    case "drag":
      return computer.drag(action.args, { x: action.args.end_x, y: action.args.end_y });
    case "scroll":
      return computer.scroll(action.args.x, action.args.y, action.args.scroll_x, action.args.scroll_y);
    case "type":
      return computer.type(action.args.text);
    case "keypress":
      return computer.keypress(action.args.keys);
    case "wait":
      return delay(action.args.ms, signal);
    case "navigate":
      return computer.navigate(checkedUrl(action.args.url));
    default:
      return assertNever(action);
  }
}

/** Only web pages: a model must not open `file:` or `javascript:` URLs. */
function checkedUrl(raw: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(raw) ? raw : `https://${raw}`;
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

export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}
