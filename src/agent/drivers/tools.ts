// The tool agent (seed 001 §2, §7; on a desktop, seed 003's tools). A page is prepared first
// (seed 004 §4.5: loaded, then screenshot and reader text) — a desktop is looked at, its focused
// window named — and the model starts from that text (a task resumed after a
// restart, from its recorded calls, then that text). Then the chat model
// calls tools — one step each — until it calls close or reaches the step cap. Each call is
// validated against its tool's schema, run through the tool runner (every action through the
// hands, so it is checked), recorded as a step and answered to the model, whose context is
// compressed before every request (agent/tool-context.ts). A Claude model that takes Anthropic's
// browser toolset is driven in that dialect instead, on a page (browser-toolset.ts).
import type { BrowserPage, Computer, ReadabilityResult, Screenshot } from "../../computers/computer.ts";
import { AppError } from "../../core/errors.ts";
import { today } from "../../core/ids.ts";
import { withoutImages, type AttachedFile } from "../../models/attachments.ts";
import type { ChatModel, ChatTurn, ToolCall } from "../../models/chat/chat-model.ts";
import { RepairBudget, streamReply, type CheckedCall } from "../../models/chat/conversation.ts";
import { chatTakesImages } from "../../models/chat/index.ts";
import { followUpNote } from "../../models/planner.ts";
import { preparePage, type PreparedPage } from "../../perception/page-prep.ts";
import { loadTokenizer } from "../../perception/page-view/tokens.ts";
import type { Attachment, ProgressStep, StepEffect, Usage } from "../../protocol/index.ts";
import { PAGE_TOOL, toolSet, type AgentTool, type ToolMode, type ToolOutcome } from "../../tools/index.ts";
import type { Driver, Outcome, RunContext } from "../driver.ts";
import { describeFile, DOWNLOAD_WAIT_MS, type FileNews } from "../file-keeper.ts";
import { PageToolNews } from "../page-tool-news.ts";
import { TAKEN_OVER, TAKEOVER_NOTE } from "../person-gate.ts";
import { unseenEffect } from "../step-history.ts";
import { compressContext } from "../tool-context.ts";
import { desktopToolPrompt, toolAgentPrompt } from "../tool-prompt.ts";
import { ToolRunner, type Ran } from "../tool-runner.ts";
import { driveBrowserToolset, offersBrowserToolset } from "./browser-toolset.ts";

const READER_TEXT_LIMIT = 4_000;

/** What happened before this driver took over a task resumed after a restart. */
export interface EarlierSteps {
  steps: readonly ProgressStep[];
  /** The restart, the question and the person's answer, as the model is told them. */
  note: string;
}

export class ToolDriver implements Driver {
  readonly label: string;

  constructor(
    private readonly model: ChatModel,
    private readonly mode: ToolMode,
    private readonly earlier: EarlierSteps | null = null,
  ) {
    this.label = `${model.name} (${mode} tools)`;
  }

  async drive(run: RunContext): Promise<Outcome> {
    const { computer, config, progress, budget, steps } = run;
    const { model, mode } = this;
    // A Claude model that takes Anthropic's browser toolset is spoken to in it, on a page.
    if (computer.web && offersBrowserToolset(config)) return driveBrowserToolset(run, model, computer.web, this.earlier);
    const task = run.task();
    const runner = new ToolRunner(run, model);
    const { web } = runner.context;
    const { agent } = config;
    const tools = toolSet({ mode, computer: computer.kind, vision: chatTakesImages(config), search: agent.searchApiKey !== "" });
    const prompt = { goal: task.text, today: today(), startUrl: task.start_url, mode, tools };
    const system = web ? toolAgentPrompt(prompt) : desktopToolPrompt(prompt);
    // Page views count tokens: the tables load while the page is prepared and the model thinks.
    if (web) loadTokenizer().catch(() => undefined);
    const opened = web ? await openPage(run, web, readWithTool) : await openDesktop(computer);
    // A page or a window title may show a secret's value already (the task resumed after it was typed).
    const first = { ...opened, text: run.secrets.conceal(opened.text) };
    if (first.shot) runner.look(first.shot);
    const goal = goalText(task.text, task.start_url, run.attachments);
    const { earlier } = this;
    // A resumed task's conversation is rebuilt from its recorded calls, with what the person added
    // while it ran before; the page it reads now is the one opened again.
    const recalled = run.followUps.told.length > 0 ? [followUpNote(run.followUps.told)] : [];
    const files = attachedFiles(run);
    // The tools the page declares, told with the page and again whenever they change.
    const pageTools = web ? new PageToolNews(computer, run.secrets) : null;
    const declared = [(await pageTools?.news()) ?? []].flat();
    const turns: ChatTurn[] = earlier
      ? [{ role: "user", text: goal, ...files }, ...recalledTurns(earlier.steps), { role: "user", text: [earlier.note, ...recalled, first.text, ...declared].join("\n\n") }]
      : [{ role: "user", text: [goal, first.text, ...declared].join("\n\n"), ...files }];
    // Answers without a tool call are sent back with a nudge until the budget is spent.
    const repairs = new RepairBudget(config.model.repairRetries);
    for (;;) {
      if (await run.gate.pausePoint()) {
        runner.look(await run.hands.capture());
        turns.push({ role: "user", text: `${TAKEOVER_NOTE} Look again before you act.` });
      }
      const added = run.followUps.take(steps.count + 1);
      if (added.length > 0) turns.push({ role: "user", text: followUpNote(added) });
      // A file that came after the call that started it was told in no tool result.
      const late = run.files.take();
      if (late.length > 0) turns.push({ role: "user", text: late.map(describeFile).join("\n") });
      const changed = await pageTools?.news();
      if (changed) turns.push({ role: "user", text: changed });
      const offered = pageTools?.heard ? [...tools, PAGE_TOOL] : tools;
      const reply = await progress.phase("plan", () => streamReply(model, { system, turns: compressContext(turns), tools: offered }, { signal: progress.signal }));
      const text = reply.text.trim();
      // An empty answer is not a turn the APIs take back (Anthropic refuses empty content).
      if (text || reply.calls.length > 0) turns.push({ role: "assistant", text, toolCalls: reply.calls.map((c) => c.call) });
      if (reply.calls.length === 0) {
        repairs.charge();
        if (repairs.spent) throw new AppError("PLANNER_INVALID_OUTPUT", "The model stopped calling tools without calling close.");
        turns.push({ role: "user", text: "Go on with a tool call. When the goal is reached, or cannot be reached, call close." });
        continue;
      }
      let usage = reply.usage;
      // Once the person took the screen, what the reply does to it was planned on a screen they now
      // use; a close after a call held back would claim what was not done, so it is held back too.
      let heldAny = false;
      for (const checked of reply.calls) {
        budget.assertStepRoom(steps.count);
        const held: boolean = checked.ok && run.gate.takeoverAsked && !checked.tool.looks && (!checked.tool.ends || heldAny);
        heldAny ||= held;
        const ran = !checked.ok
          ? unrun(checked, usage, checked.error)
          : held
            ? unrun(checked, usage, { code: "TAKEN_OVER", message: `not carried out: ${TAKEN_OVER}` })
            : await runner.call(checked.tool, checked.input, usage);
        const step = await runner.record(ran, text.split("\n")[0] ?? "", text);
        usage = { input_tokens: 0, output_tokens: 0 };
        // A download the call started (even one whose call failed: a goto to a file) is told with its result when it comes within a moment.
        await run.files.settle(DOWNLOAD_WAIT_MS);
        turns.push(toolTurn(checked.call, ran.outcome, step.effect, run.files.take()));
        if (ran.outcome.close) {
          const { reasoning, taskComplete } = ran.outcome.close;
          return taskComplete ? { status: "completed", answer: reasoning } : { status: "failed", code: "TASK_INCOMPLETE", message: reasoning };
        }
      }
    }
  }
}

/**
 * What the model reads back: `{ok: true, data}` or `{ok: false, error}` (seed 001 §3.1), plus an
 * image if any; an action the screen did not show any effect of says so, and so does one whose
 * effect no screen shows (a download it started), as the planner's history does, with the files
 * that arrived (`files`).
 */
function toolTurn(call: ToolCall, outcome: ToolOutcome, effect: StepEffect | null, files: readonly FileNews[] = []): ChatTurn {
  const said = effect?.changed ? [unseenEffect(effect), effect.note].filter((n) => n !== null).join("; ") : "";
  const unseen = {
    ...(!effect ? {} : !effect.changed ? { effect: `nothing changed on the page${effect.note ? ` (${effect.note})` : ""}` } : said ? { effect: said } : {}),
    ...(files.length > 0 ? { files: files.map(describeFile) } : {}),
  };
  const body = outcome.ok ? { ok: true, data: outcome.data ?? null, ...unseen } : { ok: false, error: outcome.error, ...(outcome.data ? { data: outcome.data } : {}), ...unseen };
  const image = outcome.image?.shot;
  return {
    role: "tool",
    toolCallId: call.id,
    name: call.name,
    content: outcome.text !== undefined ? `${JSON.stringify(body)}\n${outcome.text}` : JSON.stringify(body),
    ...(image ? { image: { mimeType: image.mimeType, data: image.data.toString("base64") } } : {}),
  };
}

/**
 * The calls an earlier server process recorded, each as the model made it and as it was answered
 * (without images: the page has been opened again since). The model's words open the first call
 * they were written for.
 */
function recalledTurns(steps: readonly ProgressStep[]): ChatTurn[] {
  return steps.flatMap((step, i): ChatTurn[] => {
    const { tool } = step;
    if (!tool) return [];
    const call: ToolCall = { id: `recalled_${step.index}`, name: tool.name, arguments: typeof tool.input === "string" ? tool.input : JSON.stringify(tool.input ?? {}) };
    const text = step.thought && step.thought !== steps[i - 1]?.thought ? step.thought : "";
    const outcome: ToolOutcome = tool.ok ? recalledOutput(tool.output) : { ok: false, error: tool.error ?? { code: "ACTION_FAILED", message: step.text } };
    return [{ role: "assistant", text, toolCalls: [call] }, toolTurn(call, outcome, step.effect)];
  });
}

/**
 * The first look at a page: prepared (seed 004 §4.5), then its reader text and any warnings. A
 * reader text too long to show is saved as an artifact, and `longText` says how the model reads it.
 */
export async function openPage(run: RunContext, web: BrowserPage, longText: LongText): Promise<{ shot: Screenshot | null; text: string }> {
  const { computer, config, progress } = run;
  const prepared = await preparePage(
    {
      loaded: async () => ({ loaded: await web.waitForLoad(config.browser.navigationTimeoutMs) }),
      screenshot: () => computer.screenshot(),
      readability: () => web.readability(run.saveArtifact),
    },
    progress.signal,
  );
  return { shot: prepared.screenshot ?? null, text: pageText(prepared, longText) };
}

/** The first look at a desktop: its screen, and which window has the focus. */
async function openDesktop(computer: Computer): Promise<{ shot: Screenshot; text: string }> {
  const [shot, window] = await Promise.all([computer.screenshot(), computer.activeWindow?.() ?? null]);
  return { shot, text: window ? `The focused window: "${window.title}" (${window.app}).` : "No window has the focus." };
}

/** What the model is told of a reader text saved as an artifact, `bytes` long. */
export type LongText = (bytes: number, artifactId: string) => string;

/** The tool agent reads a long reader text with readArtifact. */
const readWithTool: LongText = (bytes, artifactId) =>
  `The page's text is long (${bytes} bytes) and saved as artifact ${artifactId}: read it in parts, or search it, with readArtifact; ariaTree shows the page's elements.`;

/** What page preparation found, for the model's first look: the reader text and any warnings. */
function pageText({ readability, warnings }: PreparedPage<Screenshot, ReadabilityResult>, longText: LongText): string {
  const lines = warnings.map((w) => `Note: ${w}.`);
  if (readability?.text?.trim()) {
    const text = readability.text.length > READER_TEXT_LIMIT ? `${readability.text.slice(0, READER_TEXT_LIMIT)}… [cut]` : readability.text;
    lines.unshift(`Reader view of the page${readability.title ? ` "${readability.title}"` : ""}:\n${text}`);
  } else if (readability?.artifactId) {
    lines.unshift(longText(readability.contentLengthBytes, readability.artifactId));
  }
  return lines.join("\n");
}

/** The person's files for the first turn; a model that takes no images is told of attached images by name. */
export function attachedFiles(run: RunContext): { files?: readonly AttachedFile[] } {
  if (run.attached.length === 0) return {};
  return { files: chatTakesImages(run.config) ? run.attached : withoutImages(run.attached) };
}

export function goalText(goal: string, startUrl: string | null, attachments: Attachment[]): string {
  return [
    `Goal: ${goal}`,
    ...(startUrl ? [`Start page: ${startUrl}`] : []),
    ...(attachments.length > 0 ? [`The person attached: ${attachments.map((a) => a.name).join(", ")}`] : []),
  ].join("\n");
}


/**
 * A call that does not run, as a step answered with why: it cannot (an unknown tool, bad
 * arguments), or it is held back (the person took the screen before it).
 */
export function unrun(checked: CheckedCall<AgentTool>, usage: Usage, error: { code: string; message: string }): Ran {
  const { call } = checked;
  const input = checked.ok ? checked.input : (checked.json ?? call.arguments);
  return { name: call.name, label: call.name, input, outcome: { ok: false, error }, spent: usage, beforeHash: null };
}

/** A recorded output as the model read it: a page view goes back after the JSON, not inside it. */
function recalledOutput(output: unknown): ToolOutcome {
  if (!output || typeof output !== "object" || typeof (output as { view?: unknown }).view !== "string") return { ok: true, data: output };
  const { view, ...data } = output as { view: string };
  return { ok: true, data, text: view };
}
