// The page's elements as lists (§4.2 C): browser_dom_index numbers the interactive ones and writes
// each number into an attribute a later click finds them by; browser_xpath_scan lists them with
// headings and labels, each with an XPath.
import { CLICK_ID_ATTR } from "../../../../src/protocol/extension.ts";
import { callPage } from "../page-call.ts";
import { taskTab, tasks } from "../tasks.ts";
import type { ActionHandler } from "./context.ts";

export const domIndex: ActionHandler<"browser_dom_index"> = async (params, ctx) => {
  await taskTab(ctx.taskId, params.tabId, ctx.settings.serverUrl);
  const attr = params.assignAttr ?? CLICK_ID_ATTR;
  const found = await callPage(params.tabId, "domIndex", { scope: params.scope ?? "viewport", attr });
  // Clicks by id look for the attribute this index wrote.
  await tasks.update(ctx.taskId, { clickAttr: attr });
  return { elements: found.map(({ clickId, ...rest }) => ({ clickId: clickId!, ...rest })) };
};

export const xpathScan: ActionHandler<"browser_xpath_scan"> = async (params, ctx) => {
  await taskTab(ctx.taskId, params.tabId, ctx.settings.serverUrl);
  const attr = (await tasks.get(ctx.taskId))?.clickAttr ?? CLICK_ID_ATTR;
  const found = await callPage(params.tabId, "xpathScan", { scope: params.scope ?? "viewport", attr });
  return { elements: found.map(({ xpath, ...rest }) => ({ xpath: xpath!, ...rest })) };
};
