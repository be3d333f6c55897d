// The tool agent in Anthropic's browser toolset dialect: a Claude chat model that takes the
// 2026-08-01 toolsets is sent one `browser_toolset_20260801` entry instead of our tools' schemas,
// and each member it calls is one of our tools (tools/browser-toolset/), run, approved and recorded
// as a step like any other. A reply's calls run in order and the first that fails ends the batch:
// the rest are answered as not carried out. Every result that did not fail reports the open tabs.
// An answer without a call ends the task, or, when it asks the person to act, waits for them; both
// are recorded as steps (close, askUser), so a replay of the task ends where it ended. The tools a
// page declares for agents are told as they change, and pageTool is declared beside the toolset
// once a page of the task has any.
import { today } from "../../core/ids.ts";
import { AppError } from "../../core/errors.ts";
import type { Config } from "../../core/config.ts";
import type { BrowserPage, Computer } from "../../computers/computer.ts";
import { askedOfPerson } from "../../models/asks-person.ts";
import { BROWSER_FAMILY, browserToolsetEntry, takesBrowserToolset } from "../../models/anthropic/browser-toolset.ts";
import type { ChatModel, ChatTurn, TabEntry, ToolCall } from "../../models/chat/chat-model.ts";
import { RepairBudget, streamReply } from "../../models/chat/conversation.ts";
import { chatEndpoint, chatTakesImages } from "../../models/chat/index.ts";
import { followUpNote } from "../../models/planner.ts";
import { loadTokenizer } from "../../perception/page-view/tokens.ts";
import type { StepEffect } from "../../protocol/index.ts";
import { browserMembers, everyTool, findTool, PAGE_TOOL, TAB_ID, type ToolOutcome } from "../../tools/index.ts";
import type { Outcome, RunContext } from "../driver.ts";
import { PageToolNews } from "../page-tool-news.ts";
import { TAKEN_OVER, TAKEOVER_NOTE } from "../person-gate.ts";
import { compressContext } from "../tool-context.ts";
import { browserToolsetPrompt } from "../tool-prompt.ts";
import { ToolRunner } from "../tool-runner.ts";
import { attachedFiles, goalText, openPage, unrun, type EarlierSteps } from "./tools.ts";

const NOT_RUN = "Not carried out: an earlier browser action in this turn failed.";
// Claude's answer in words is recorded as our close, and a request to the person as our askUser:
// the timeline ends, and a replay stops, where the task did.
const CLOSE = findTool(everyTool(), "close")!;
const ASK_USER = findTool(everyTool(), "askUser")!;

/** Whether the tool agent's chat model is a Claude model that takes the browser toolset. */
export function offersBrowserToolset(config: Config): boolean {
  const { provider, name } = chatEndpoint(config);
  return provider === "anthropic" && takesBrowserToolset(name);
}

export async function driveBrowserToolset(run: RunContext, model: ChatModel, web: BrowserPage, earlier: EarlierSteps | null): Promise<Outcome> {
  const { computer, config, progress, budget, steps } = run;
  const task = run.task();
  const runner = new ToolRunner(run, model);
  const members = browserMembers({ vision: chatTakesImages(config), computer: computer.kind });
  const toolset = browserToolsetEntry(new Set(members.map((m) => m.name)));
  const system = browserToolsetPrompt({ goal: task.text, today: today(), startUrl: task.start_url, tabs: computer.tabs !== undefined });
  loadTokenizer().catch(() => undefined);
  const opened = await openPage(run, web, (bytes) => `The page's text is long (${bytes} bytes); use find, or read_page with a ref, to read part of it.`);
  if (opened.shot) runner.look(opened.shot);
  const before = earlier ? [earlier.note, `Steps taken before: ${earlier.steps.map((s, i) => `${i + 1}. ${s.tool?.label ?? s.text}`).join("; ") || "none"}.`] : [];
  const recalled = run.followUps.told.length > 0 ? [followUpNote(run.followUps.told)] : [];
  const pageTools = new PageToolNews(computer, run.secrets);
  const declared = [(await pageTools.news()) ?? []].flat();
  const turns: ChatTurn[] = [{ role: "user", text: [goalText(task.text, task.start_url, run.attachments), ...before, ...recalled, run.secrets.conceal(opened.text), ...declared].join("\n\n"), ...attachedFiles(run) }];
  const tabs = new Tabs(computer);
  const repairs = new RepairBudget(config.model.repairRetries);
  for (;;) {
    if (await run.gate.pausePoint()) {
      runner.look(await run.hands.capture());
      turns.push({ role: "user", text: `${TAKEOVER_NOTE} Read the page again before you act.` });
    }
    const added = run.followUps.take(steps.count + 1);
    if (added.length > 0) turns.push({ role: "user", text: followUpNote(added) });
    const changed = await pageTools.news();
    if (changed) turns.push({ role: "user", text: changed });
    const offered = pageTools.heard ? { tools: [...members, PAGE_TOOL], besideToolset: [PAGE_TOOL.name] } : { tools: members };
    const reply = await progress.phase("plan", () => streamReply(model, { system, turns: compressContext(turns), ...offered, toolset }, { signal: progress.signal }));
    const text = reply.text.trim();
    if (text || reply.calls.length > 0) turns.push({ role: "assistant", text, toolCalls: reply.calls.map((c) => c.call) });
    if (reply.calls.length === 0) {
      if (text) {
        // Words end the task, or ask the person; either is a step of ours, recorded with what the reply cost.
        const request = askedOfPerson(text);
        budget.assertStepRoom(steps.count);
        const ran = request ? await runner.call(ASK_USER, { request }, reply.usage) : await runner.call(CLOSE, { reasoning: text, taskComplete: true }, reply.usage);
        await runner.record(ran, text.split("\n")[0] ?? "", text);
        if (!request) return { status: "completed", answer: text };
        const { reply: answer } = (ran.outcome.data ?? {}) as { reply?: string };
        runner.look(await run.hands.capture());
        turns.push({ role: "user", text: `The person was asked to act and answered: ${answer ?? ""}\nRead the page again before you act.` });
        continue;
      }
      repairs.charge();
      if (repairs.spent) throw new AppError("PLANNER_INVALID_OUTPUT", "The model answered with nothing: no words and no browser action.");
      turns.push({ role: "user", text: "Go on with a browser action, or answer the person in words once the goal is reached." });
      continue;
    }
    let usage = reply.usage;
    let failed = false;
    for (const checked of reply.calls) {
      if (failed) {
        turns.push(memberTurn(checked.call, { ok: false, error: { code: "NOT_RUN", message: NOT_RUN } }, null, []));
        continue;
      }
      budget.assertStepRoom(steps.count);
      const held = checked.ok && run.gate.takeoverAsked && !checked.tool.looks;
      const ran = !checked.ok
        ? unrun(checked, usage, checked.error.code === "UNKNOWN_TOOL" ? { code: "UNKNOWN_TOOL", message: `${checked.call.name} is not offered in this browser.` } : checked.error)
        : held
          ? unrun(checked, usage, { code: "TAKEN_OVER", message: `Not carried out: ${TAKEN_OVER}` })
          : await runner.call(checked.tool, checked.input, usage);
      const step = await runner.record(ran, text.split("\n")[0] ?? "", text);
      usage = { input_tokens: 0, output_tokens: 0 };
      tabs.learn(ran.outcome);
      turns.push(memberTurn(checked.call, ran.outcome, step.effect, await tabs.now()));
      failed = !ran.outcome.ok;
    }
  }
}

/**
 * The tabs as the results report them: our own browser's, each with its title; elsewhere the one
 * tab driven, titled as the last read of its page gave.
 */
class Tabs {
  private seen = { url: "", title: "" };

  constructor(private readonly computer: Computer) {}

  learn(outcome: ToolOutcome): void {
    const data = outcome.data as { pageUrl?: unknown; title?: unknown } | undefined;
    if (typeof data?.pageUrl === "string" && typeof data.title === "string") this.seen = { url: data.pageUrl, title: data.title };
  }

  async now(): Promise<TabEntry[]> {
    const { tabs } = this.computer;
    if (tabs) return (await tabs.list()).map(({ id, title, url, active }) => ({ tab_id: id, title, url, active }));
    const url = (await this.computer.currentUrl()) ?? "";
    return [{ tab_id: TAB_ID, title: url === this.seen.url ? this.seen.title : "", url, active: true }];
  }
}

/**
 * A member's result as the model reads it: what it did or read (or why it failed), and what the
 * page showed of it when nothing changed; the tabs go with every result that did not fail.
 */
function memberTurn(call: ToolCall, outcome: ToolOutcome, effect: StepEffect | null, tabs: TabEntry[]): ChatTurn {
  // pageTool, declared beside the toolset, is answered as a tool of its own: no family, no tabs.
  const family = call.name === PAGE_TOOL.name && !call.toolset ? null : (call.toolset ?? BROWSER_FAMILY);
  const unseen = !effect ? "" : !effect.changed ? `Nothing changed on the page${effect.note ? ` (${effect.note})` : ""}.` : (effect.note ?? "");
  const said = outcome.ok ? [outcome.text ?? "Done.", unseen] : [outcome.error?.message ?? "It failed."];
  const image = outcome.ok ? outcome.image?.shot : undefined;
  return {
    role: "tool",
    toolCallId: call.id,
    name: call.name,
    content: said.filter(Boolean).join("\n"),
    ...(image ? { image: { mimeType: image.mimeType, data: image.data.toString("base64") } } : {}),
    ...(family ? { toolset: { name: family, isError: !outcome.ok, tabs: outcome.ok ? tabs : null } } : {}),
  };
}
