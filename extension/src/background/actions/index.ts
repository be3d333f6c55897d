// Runs the server's `browser_action`s: acks at once, checks the parameters against the contract,
// runs each id once (a repeat is acked and, once done, answered with the same result; for actions
// that change something, also after the worker restarted: acted.ts), and answers with
// `browser_action_result`. The handlers, one per action of §4.2, are named here.
import { ACTION_NAMES, actionParamsSchemas, type ActionName, type ExtensionMessage, type ServerMessage } from "../../../../src/protocol/extension.ts";
import { readSettings } from "../../shared/settings.ts";
import { ActionError, toWireError } from "../action-error.ts";
import { changesSomething, keepResult, markBegun, recall } from "./acted.ts";
import { getHtml, readabilityExtract, screenshot } from "./capture-actions.ts";
import type { ActionContext, ActionHandler, ActionHandlers } from "./context.ts";
import { domIndex, xpathScan } from "./dom-actions.ts";
import { click, type } from "./input-actions.ts";
import { debuggerAttach, taskStart, taskStop, waitForLoaded } from "./tab-actions.ts";

const handlers: ActionHandlers = {
  task_start: taskStart,
  browser_debugger_attach: debuggerAttach,
  task_stop: taskStop,
  browser_wait_for_loaded: waitForLoaded,
  browser_screenshot: screenshot,
  browser_readability_extract: readabilityExtract,
  browser_dom_index: domIndex,
  browser_xpath_scan: xpathScan,
  browser_click: click,
  browser_type: type,
  browser_get_html: getHtml,
};

type Result = Extract<ExtensionMessage, { type: "browser_action_result" }>;
type BrowserAction = Extract<ServerMessage, { type: "browser_action" }>;

/** Results kept for repeats; older ones are forgotten first. */
const REMEMBERED = 500;
const runs = new Map<string, Promise<Result>>();
const finished = new Map<string, Result>();

export function runAction(action: BrowserAction, send: (message: ExtensionMessage) => void): void {
  const id = String(action.id);
  send({ type: "ack", id });
  const done = finished.get(id);
  if (done) return send(done);
  // Still running: the result goes out when it is ready.
  if (runs.has(id)) return;
  const run = once(action).then((result) => {
    runs.delete(id);
    finished.set(id, result);
    if (finished.size > REMEMBERED) finished.delete(finished.keys().next().value!);
    return result;
  });
  runs.set(id, run);
  void run.then(send);
}

/** Runs an action that changes something only if no earlier worker began it (acted.ts); the others run. */
async function once(action: BrowserAction): Promise<Result> {
  if (!changesSomething(action.name)) return execute(action);
  const id = String(action.id);
  // Storage that fails leaves the worker's own memory to keep the ids.
  const earlier = await recall(id).catch(() => null);
  if (earlier === "begun") {
    const message = `The extension restarted while it ran ${action.name} (${id}); whether it took effect is not known. Look at the page again.`;
    return { type: "browser_action_result", id, ok: false, error: { code: "ACTION_FAILED", message, retryable: false } };
  }
  if (earlier) return earlier;
  await markBegun(id).catch(() => undefined);
  const result = await execute(action);
  await keepResult(id, result).catch(() => undefined);
  return result;
}

async function execute(action: BrowserAction): Promise<Result> {
  const id = String(action.id);
  const ctx: ActionContext = { taskId: String(action.taskId), settings: await readSettings(), warnings: [], partial: false };
  try {
    const name = action.name;
    if (!isActionName(name)) {
      throw new ActionError("SCHEMA_VALIDATION_FAILED", `Unknown action ${JSON.stringify(name)}; known: ${ACTION_NAMES.join(", ")}.`);
    }
    if (!action.taskId) throw new ActionError("SCHEMA_VALIDATION_FAILED", "The action names no taskId.");
    const parsed = actionParamsSchemas[name].safeParse(action.params ?? {});
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "params"}: ${i.message}`).join("; ");
      throw new ActionError("SCHEMA_VALIDATION_FAILED", `${name} parameters are invalid — ${issues}`);
    }
    const result = await (handlers[name] as ActionHandler<ActionName>)(parsed.data as never, ctx);
    return {
      type: "browser_action_result",
      id,
      ok: true,
      status: ctx.partial ? "partial" : "success",
      result,
      ...(ctx.warnings.length ? { warnings: ctx.warnings } : {}),
    };
  } catch (err) {
    return { type: "browser_action_result", id, ok: false, error: toWireError(err), ...(ctx.warnings.length ? { warnings: ctx.warnings } : {}) };
  }
}

function isActionName(name: string): name is ActionName {
  return (ACTION_NAMES as readonly string[]).includes(name);
}
