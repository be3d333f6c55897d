// Calls a function of the page bundle in a tab's top frame through chrome.scripting, injecting the
// bundle first where the document does not have it yet; the page's failures come back as
// ActionErrors with the code the page gave.
import { EXTENSION_ERROR_CODES, type ExtensionErrorCode } from "../../../src/protocol/extension.ts";
import { PAGE_GLOBAL, PAGE_SCRIPT } from "../shared/messages.ts";
import type { PageApi, PageFunction } from "../page/main.ts";
import { ActionError, errorMessage } from "./action-error.ts";

type Outcome = { missing: true } | { value: unknown } | { error: { name: string; message: string } };

/**
 * @example const elements = await callPage(tabId, "domIndex", { scope: "viewport", attr });
 */
export async function callPage<F extends PageFunction>(tabId: number, name: F, arg: Parameters<PageApi[F]>[0]): Promise<Awaited<ReturnType<PageApi[F]>>> {
  let outcome = await run(tabId, name, arg);
  if ("missing" in outcome) {
    await inject(tabId);
    outcome = await run(tabId, name, arg);
  }
  if ("missing" in outcome) throw new ActionError("ACTION_FAILED", `The page script could not be loaded into tab ${tabId}.`, true);
  if ("error" in outcome) {
    const code = (EXTENSION_ERROR_CODES as readonly string[]).includes(outcome.error.name) ? (outcome.error.name as ExtensionErrorCode) : "ACTION_FAILED";
    throw new ActionError(code, outcome.error.message);
  }
  return outcome.value as Awaited<ReturnType<PageApi[F]>>;
}

async function run(tabId: number, name: string, arg: unknown): Promise<Outcome> {
  try {
    const [first] = await chrome.scripting.executeScript({
      target: { tabId, frameIds: [0] },
      // Serialized into the page: it may use nothing from this module.
      func: async (global: string, fn: string, input: unknown) => {
        const api = (globalThis as unknown as Record<string, Record<string, (a: unknown) => unknown> | undefined>)[global];
        if (!api) return { missing: true };
        try {
          return { value: await api[fn]!(input) };
        } catch (err) {
          const e = err instanceof Error ? err : new Error(String(err));
          return { error: { name: e.name, message: e.message } };
        }
      },
      args: [PAGE_GLOBAL, name, arg ?? null],
    });
    return (first?.result ?? { missing: true }) as Outcome;
  } catch (err) {
    throw scriptingError(tabId, err);
  }
}

async function inject(tabId: number): Promise<void> {
  try {
    await chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, files: [PAGE_SCRIPT] });
  } catch (err) {
    throw scriptingError(tabId, err);
  }
}

function scriptingError(tabId: number, err: unknown): ActionError {
  const message = errorMessage(err);
  if (/no tab with id/i.test(message)) return new ActionError("TASK_TAB_CLOSED", `Tab ${tabId} was closed.`);
  if (/cannot access|cannot be scripted|extensions gallery|chrome:\/\//i.test(message)) {
    return new ActionError("INVALID_TARGET", `The page in tab ${tabId} cannot be read or automated by an extension: ${message}`);
  }
  // A document being replaced (navigation) or a frame gone: worth one more try later.
  return new ActionError("ACTION_FAILED", `Could not run in tab ${tabId}: ${message}`, true);
}
