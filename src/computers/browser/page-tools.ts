// The tools a page declares for agents (WebMCP): found and called in the page that is the screen.
// Chromium has the standard API (`document.modelContext`: registerTool, getTools, executeTool)
// only behind its WebMCP feature; where a browser has none, an init script gives every page one
// that records what the page registers, so a page that declares its tools by script is heard all
// the same. Both are then read through the same consumer calls. Names, descriptions, schemas and
// results are the page's own words: the callers treat them as page content.
import type { BrowserContext, Page } from "playwright-core";
import { AppError, firstLine } from "../../core/errors.ts";
import type { PageTool } from "../computer.ts";

/** How long a page's tool may take before it is given up. */
const CALL_TIMEOUT_MS = 30_000;
/** A result longer than this is cut in the page already: what the model gets is cut far shorter. */
const RESULT_CHARS = 100_000;

/**
 * Gives the page a model context where the browser has none (only then: a standard one is left
 * alone), under both the standard name and the older `navigator.modelContext`; where it has only
 * one of the two names, the other points at it. Secure contexts only, as the standard's.
 */
const MODEL_CONTEXT = `(() => {
  if (!isSecureContext) return;
  const standard = "modelContext" in Document.prototype || "modelContext" in document;
  const older = "modelContext" in Navigator.prototype || "modelContext" in navigator;
  const put = (where, context) => Object.defineProperty(where, "modelContext", { value: context, configurable: true, enumerable: true });
  if (standard && !older) return put(navigator, document.modelContext);
  if (older && !standard) return put(document, navigator.modelContext);
  if (standard) return;
  const tools = new Map();
  const changed = () => context.dispatchEvent(new Event("toolchange"));
  const context = new EventTarget();
  const register = (tool, options) => {
    if (!tool || typeof tool.name !== "string" || tool.name === "" || typeof tool.execute !== "function") throw new TypeError("A tool needs a name and an execute function.");
    if (tools.has(tool.name)) throw new DOMException("A tool named " + tool.name + " is registered already.", "InvalidStateError");
    const entry = { name: tool.name, title: String(tool.title ?? ""), description: String(tool.description ?? ""), inputSchema: tool.inputSchema ?? null, annotations: tool.annotations ?? null, execute: tool.execute };
    tools.set(tool.name, entry);
    options?.signal?.addEventListener("abort", () => unregister(tool.name));
    changed();
    return { unregister: () => unregister(tool.name) };
  };
  const unregister = (name) => {
    if (tools.delete(name)) changed();
  };
  Object.assign(context, {
    registerTool: register,
    unregisterTool: unregister,
    provideContext(given) {
      tools.clear();
      for (const tool of given?.tools ?? []) register(tool);
    },
    clearContext() {
      tools.clear();
      changed();
    },
    async getTools() {
      return [...tools.values()].map(({ execute, ...described }) => ({ ...described, window }));
    },
    async executeTool(tool, input) {
      const entry = tools.get(typeof tool === "string" ? tool : tool?.name);
      if (!entry) throw new DOMException("No such tool.", "NotFoundError");
      return entry.execute(input ?? {}, { requestUserInteraction: (callback) => Promise.resolve(callback()) });
    },
  });
  put(Document.prototype, context);
  put(Navigator.prototype, context);
})()`;

/**
 * The consumer side, run in the page: `list` reads the tools of the page's own document (the
 * standard lists its frames' too, each naming its window: `source`, formerly `window`); `call`
 * runs one. Source text rather than a function: tsx would wrap inner helpers in a `__name` the
 * page lacks.
 */
const CONSUMER = `async ({ op, name, input, timeoutMs, maxChars }) => {
  const context = document.modelContext ?? navigator.modelContext;
  const all = typeof context?.getTools === "function" ? await context.getTools() : [];
  const own = all.filter((tool) => (tool.source ?? tool.window ?? window) === window);
  if (op === "list") {
    return own.map((tool) => ({
      name: String(tool.name),
      description: String(tool.description ?? ""),
      inputSchema: typeof tool.inputSchema === "string" ? tool.inputSchema : JSON.stringify(tool.inputSchema ?? null),
      readOnly: tool.annotations?.readOnlyHint === true,
    }));
  }
  const tool = own.find((t) => t.name === name);
  if (!tool) return { kind: "missing", names: own.map((t) => String(t.name)) };
  let timer = 0;
  const late = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error("it did not answer within " + timeoutMs / 1000 + " s")), timeoutMs)));
  try {
    const run = context.executeTool(tool, input).catch((error) => {
      // Some Chromium versions take the input only as JSON text; refused so, the tool has not run.
      if (error instanceof TypeError && /parse input/i.test(error.message)) return context.executeTool(tool, JSON.stringify(input));
      throw error;
    });
    const result = await Promise.race([run, late]);
    const text = typeof result === "string" ? result : result === undefined ? "" : JSON.stringify(result);
    return { kind: "answered", text: text.length > maxChars ? text.slice(0, maxChars) : text };
  } catch (error) {
    return { kind: "threw", message: error instanceof Error ? error.name + ": " + error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}`;

type Listed = { name: string; description: string; inputSchema: string; readOnly: boolean }[];
type Called = { kind: "missing"; names: string[] } | { kind: "answered"; text: string } | { kind: "threw"; message: string };

function consume<T>(page: Page, args: Record<string, unknown>): Promise<T> {
  return page.evaluate(`(${CONSUMER})(${JSON.stringify(args)})`) as Promise<T>;
}

/** Lets every page the context opens from now on declare tools, and the pages it has already. */
export async function hearPageTools(context: BrowserContext): Promise<void> {
  await context.addInitScript(MODEL_CONTEXT);
  await Promise.all(context.pages().map((page) => page.evaluate(MODEL_CONTEXT).catch(() => undefined)));
}

/**
 * The tools the page's own document declares now, by name (the standard keeps no order a model
 * could rely on); none where it has no model context.
 */
export async function pageTools(page: Page): Promise<PageTool[]> {
  const listed = await consume<Listed>(page, { op: "list" });
  return listed.map((tool) => ({ ...tool, inputSchema: schemaOf(tool.inputSchema) })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Calls one of the page's tools with `input` and gives back what it answered, as JSON text (a
 * string answer as it is). NOT_FOUND when the page declares no tool of that name; ACTION_FAILED,
 * with the page's words, when the tool threw or did not answer in time.
 */
export async function callPageTool(page: Page, name: string, input: Record<string, unknown>): Promise<string> {
  const answer = await consume<Called>(page, { op: "call", name, input, timeoutMs: CALL_TIMEOUT_MS, maxChars: RESULT_CHARS });
  switch (answer.kind) {
    case "missing":
      throw new AppError("NOT_FOUND", `The page declares no tool "${name}"${answer.names.length > 0 ? `; it declares ${answer.names.map((n) => `"${n}"`).join(", ")}` : ""}.`);
    case "threw":
      throw new AppError("ACTION_FAILED", `The page's tool "${name}" failed: ${firstLine(answer.message).slice(0, 500)}`);
    case "answered":
      return answer.text;
  }
}

/** A schema the page gave as an object or as JSON text; null when it gave none that reads. */
function schemaOf(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
