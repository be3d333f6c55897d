// The Chrome the person is already running, by their consent (ATTACH_CHROME): once they turn on
// remote debugging at chrome://inspect/#remote-debugging (Chrome 144+), Chrome serves DevTools on
// a local port, writes the port and its browser's WebSocket path into its profile's
// DevToolsActivePort, and asks them to allow each program that connects. This reads that file,
// checks that the port answers and attaches there. It never starts or restarts their Chrome: when
// the switch is off, the task fails saying how to turn it on.
import { readFile } from "node:fs/promises";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { AppError } from "../../core/errors.ts";
import type { BrowserComputer } from "./browser-computer.ts";
import type { BrowserHost } from "./browser-host.ts";

/** Where the person turns their Chrome's remote debugging on. */
export const REMOTE_DEBUGGING_PAGE = "chrome://inspect/#remote-debugging";

/** How long the port may take to answer: it is on this machine. */
const PROBE_TIMEOUT_MS = 2_000;

/** Whether a configured endpoint is the running Chrome's DevToolsActivePort (core/cdp-endpoints.ts) rather than an address. */
export function isRunningChrome(endpoint: string): boolean {
  return endpoint.startsWith("file:");
}

function switchedOff(why: string): AppError {
  return new AppError(
    "BROWSER_UNAVAILABLE",
    `Your Chrome is not open to EasyAgentCU: ${why}. In that Chrome, open ${REMOTE_DEBUGGING_PAGE}, turn on remote debugging, then send the task again and allow the connection when Chrome asks. EasyAgentCU never starts or restarts your Chrome.`,
    { retryable: true },
  );
}

/** The DevTools WebSocket address the DevToolsActivePort at `endpoint` (a `file:` URL) names, once its port answers. */
export async function runningChromeUrl(endpoint: string): Promise<string> {
  const file = fileURLToPath(endpoint);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    throw switchedOff(missing ? `there is no ${file}, so Chrome is not running with that profile or its remote debugging is off` : `${file} cannot be read (${String(error)})`);
  }
  const [portLine = "", browserPath = ""] = text.split(/\r?\n/).map((line) => line.trim());
  const port = Number(portLine);
  if (!Number.isInteger(port) || port < 1 || port > 65_535 || !browserPath.startsWith("/devtools/browser/")) {
    throw switchedOff(`${file} does not name a port and a browser`);
  }
  if (!(await answers(port))) throw switchedOff(`nothing answers on port ${port}, which ${file} names: Chrome has closed, or its remote debugging was turned off`);
  return `ws://127.0.0.1:${port}${browserPath}`;
}

/** A bare TCP connection, closed at once: it does not reach DevTools, so Chrome asks the person nothing. */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(PROBE_TIMEOUT_MS, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/** Attaches to the person's running Chrome as to any browser over CDP, with the page `targetId` names or its first. */
export async function attachRunningChrome(
  browsers: BrowserHost,
  endpoint: string,
  targetId: string | undefined,
  options: Parameters<BrowserHost["attach"]>[2],
): Promise<BrowserComputer> {
  const url = await runningChromeUrl(endpoint);
  try {
    return await browsers.attach(url, targetId, options);
  } catch (error) {
    // Chrome refuses the connection when the person did not allow it.
    if (error instanceof AppError && error.code === "BROWSER_UNAVAILABLE") {
      throw new AppError("BROWSER_UNAVAILABLE", `${error.message} Chrome asks you to allow each connection: allow it, then send the task again.`, { retryable: true, cause: error });
    }
    throw error;
  }
}
