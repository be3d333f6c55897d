// The planner loop (seed 000 §3.3 RUN_LOOP): observe → the planner decides → the hands act and
// check → record, one step at a time. The planner's capabilities are read once per step: the
// image size it wants, whether it picks among numbered elements, whether it can look at the
// pointer. A step that could not be placed or failed is recorded and told to the model. A call of
// one of the page's own tools (`page_tool`) runs as the tool agent's pageTool does, and its answer
// comes with the next request.
import { raceAbort } from "../../core/abort.ts";
import { AppError } from "../../core/errors.ts";
import { newId } from "../../core/ids.ts";
import type { Performed, PointerLook } from "../../hands/hands.ts";
import type { ChatModel } from "../../models/chat/chat-model.ts";
import { GaveUp, Replan, type PageToolAnswer, type Planner, type PlannerCapabilities, type PlannerTurn } from "../../models/planner.ts";
import { scaleElements } from "../../perception/elements.ts";
import { modelView, zoomView, type ImageRegion } from "../../perception/model-image.ts";
import { convert } from "../../perception/coordinates.ts";
import { resolveAction } from "../../perception/resolve.ts";
import type { Screenshot } from "../../perception/screenshot.ts";
import { actionPoint, isFinal, type Action, type CarriedOut, type PageToolAction } from "../../protocol/index.ts";
import { PAGE_TOOL, parseInput } from "../../tools/index.ts";
import type { Driver, Outcome, RunContext } from "../driver.ts";
import { describeFile, DOWNLOAD_WAIT_MS } from "../file-keeper.ts";
import { plannerPageTools } from "../page-tool-news.ts";
import { TAKEN_OVER, TAKEOVER_NOTE } from "../person-gate.ts";
import { TEXT_CHARS } from "../step-recorder.ts";
import { couldNotHit, historyLine, stepText, type StepOutcome } from "../step-history.ts";
import { ToolRunner, type Ran } from "../tool-runner.ts";

/** Why a click the pointer could not be placed for was not made. */
const NOT_PLACED = "the pointer could not be placed on it";

export class PlannerDriver implements Driver {
  readonly label: string;
  /**
   * `model`: the chat model of the tools' context, which a page's tool does not ask; `history`:
   * what happened before this driver took over (a task resumed after a restart).
   */
  constructor(
    private readonly planner: Planner,
    private readonly model: ChatModel,
    private readonly history: string[] = [],
  ) {
    this.label = planner.name;
  }

  async drive(run: RunContext): Promise<Outcome> {
    const { computer, hands, config, progress, budget, steps } = run;
    const { signal } = progress;
    const { planner } = this;
    // The person asked for the screen during the last step: whether or not they have handed it back yet, look again.
    let stale = false;
    // A page's tool is called as the tool agent calls it: through the hands, under the approval policy.
    const runner = new ToolRunner(run, this.model);
    // What the page's tool the last step called came to, for the next request.
    let answered: PageToolAnswer | null = null;
    // The page's tools, read beside a capture of the screen after the last action: the next request
    // lists them if that capture is the screen the model is shown.
    let listed: { capture: Promise<Screenshot>; tools: Promise<string | null> } | null = null;
    const takeListed = () => {
      const taken = listed;
      listed = null;
      return taken;
    };
    for (;;) {
      budget.assertStepRoom(steps.count);
      // The person may have changed anything while the screen was theirs: look again.
      const tookOver = await run.gate.pausePoint();
      if (tookOver) this.history.push(TAKEOVER_NOTE);
      // A download ends after the step that started it: the model hears of it before its next one.
      await run.files.settle(DOWNLOAD_WAIT_MS);
      for (const file of run.files.take()) this.history.push(describeFile(file));
      const fresh = tookOver || stale || !hands.screen;
      const shot = fresh ? await hands.capture() : hands.screen!;
      stale = false;
      const url = await currentUrl(run);
      // Else read while the image is encoded: a page's tools cost a round trip to it.
      const taken = takeListed();
      const beside = taken && !fresh && (await taken.capture.catch(() => null)) === shot ? taken.tools : null;
      const listing = beside ?? plannerPageTools(computer, run.secrets);
      const caps = planner.capabilities(shot);
      const max = caps.imageSize ?? { width: config.model.imageMaxWidth, height: config.model.imageMaxHeight };
      const view = await progress.phase("encode", () => modelView(shot, computer.logicalSize, max, config.browser.jpegQuality));
      const found = caps.elements && computer.elements ? await progress.phase("perception", () => raceAbort(computer.elements!(), signal)) : null;
      const elements = found ? scaleElements(found, view.spaces.screenshot, view.spaces.model) : undefined;
      const pageTools = await listing;
      // What the person said while the step was being prepared goes into this step's request.
      run.followUps.take(steps.count + 1);
      const request = {
        task: run.task().text,
        followUps: [...run.followUps.told],
        attachments: run.attached,
        step: steps.count + 1,
        history: this.history.slice(-config.model.historySteps),
        screenshot: view.image,
        url,
        // A page may echo a secret's value into an element's label or the window's title.
        window: computer.activeWindow ? run.secrets.concealAll(await computer.activeWindow()) : null,
        ...(elements ? { elements: run.secrets.concealAll(elements) } : {}),
        ...(pageTools ? { pageTools } : {}),
        ...(answered ? { pageToolAnswer: answered } : {}),
        screen: {
          zoom: (region: ImageRegion) => progress.phase("encode", () => zoomView(shot, region, view.spaces, max, config.browser.jpegQuality)),
          cursor: async () => convert(await raceAbort(computer.cursorPosition(), signal), view.spaces, "screenshot", "model"),
        },
      };
      let turn: PlannerTurn;
      try {
        turn = await progress.phase("plan", () => planner.next(request, signal));
      } catch (error) {
        // Another planner took over within the step: it looks at the screen its own way.
        if (error instanceof Replan) continue;
        if (!(error instanceof GaveUp)) throw error;
        const { thought, progress, usage, planner: answered } = error.turn;
        await steps.commit(shot, { text: `${progress || "Gave up"} (failed: ${error.message})`, thought, action: null, tool: null, cursor_x: null, cursor_y: null, url, effect: null, verification: null, planner: answered, usage });
        return { status: "failed", code: "TASK_INCOMPLETE", message: error.message };
      }
      signal.throwIfAborted();
      // Told: kept until a planner answered, so one that took over within the step (Replan) hears it too.
      answered = null;
      const { action } = turn;
      if (action.type === "page_tool") {
        // The person took the screen while the model thought: the page is theirs now.
        const held = run.gate.takeoverAsked;
        if (held) {
          planner.discard?.(TAKEN_OVER);
          stale = true;
        }
        answered = await this.callPageTool(run, runner, turn, action, held);
        continue;
      }
      // An action on the screen from here on.
      const acted = { ...turn, action };
      if (isFinal(action)) {
        await this.record(run, acted, shot, url, { at: null });
        if (action.type === "done") return { status: "completed", answer: action.args.answer };
        await this.askUser(run, action.args.answer);
        continue;
      }
      // The planner that answered may not be the one asked (a router fell back to one that sees alike).
      const acting = planner.capabilities(shot);
      const resolved = resolveAction(action, view.spaces);
      const aimed = actionPoint(resolved);
      if (run.gate.takeoverAsked) {
        // The person took the screen while the model thought: its action, and what it planned after it, were for a screen they now use.
        planner.discard?.(TAKEN_OVER);
        stale = true;
        await this.record(run, acted, shot, url, { at: aimed, failure: `not carried out: ${TAKEN_OVER}` });
        continue;
      }
      if (turn.approval) {
        // The model flagged the action itself (OpenAI's safety checks): its protocol goes on only once they are acknowledged.
        const frame = await steps.saveFrame(shot, { approval: true });
        const approval = { id: newId("appr"), checks: turn.approval.checks, action: resolved, tool: null, intent: action.intent, url, frame, at: aimed, box: null, from_page: false, frame_origin: null };
        if (!(await run.gate.approve(approval))) {
          const why = turn.approval.checks.map((c) => c.message || c.code).join("; ");
          return { status: "stopped", reason: `the person did not approve: ${why}` };
        }
        turn.approval.acknowledge();
      }
      // In a browser, what the pointer is aimed at, for Run again and the export to find again: found
      // before the action changes the page, and how to find it (its locator code) read beside the
      // policy's read, before anything touches the page.
      const aimedAt = aimed && computer.web ? await progress.phase("perception", () => computer.web!.elementAt(aimed.x, aimed.y)).catch(() => null) : null;
      const described = aimedAt && computer.web!.describeTarget(aimedAt).catch(() => aimedAt);
      const readsFirst = described ? { readsFirst: described } : {};
      let performed: Performed;
      try {
        performed = await hands.perform(
          { kind: "action", action: resolved, intent: action.intent, focus: turn.focus === true },
          { look: lookOf(acting), requested: action.requires_verification, clicks: acting.verifyClicks, ...readsFirst, alongCapture: (capture) => void (listed = { capture, tools: plannerPageTools(computer, run.secrets) }) },
        );
      } catch (error) {
        if (!(error instanceof AppError) || (error.code !== "ACTION_FAILED" && error.code !== "DENIED")) throw error;
        // What the model planned after it assumed it was done.
        planner.discard?.(error.message);
        hands.takeChecks();
        const after = await hands.capture();
        await this.record(run, acted, after, await currentUrl(run), { at: aimed, failure: error.message });
        continue;
      }
      hands.takeChecks();
      if (performed.kind === "unverified") {
        planner.discard?.(NOT_PLACED);
        await this.record(run, acted, shot, url, { at: aimed, verification: performed.verification, usage: performed.usage, unverified: true });
        const looks = performed.verification.attempts.filter((a) => a.method === "model").length || performed.verification.attempts.length;
        await this.askUser(run, couldNotHit(action.intent || turn.progress, looks, config.locale));
        continue;
      }
      const { after, at, effect, verification, usage } = performed;
      const carried = { action: at ? withPoint(resolved, at) : resolved, element: await described };
      await this.record(run, acted, after, await currentUrl(run), { at, verification, usage, ...(effect ? { effect } : {}) }, carried);
    }
  }

  /**
   * Calls one of the page's tools as the tool agent's pageTool does — a wrong name or arguments
   * against its schema answered without running it, a tool not marked read-only judged as a submit
   * — and records the call as the tool's step (its name, arguments and answer on the timeline).
   * `held`: not carried out, the person has the screen.
   */
  private async callPageTool(run: RunContext, runner: ToolRunner, turn: PlannerTurn, action: PageToolAction, held: boolean): Promise<PageToolAnswer> {
    const given = { name: action.args.name, arguments: action.args.arguments };
    const parsed = parseInput(PAGE_TOOL, given);
    const unrun = (outcome: Ran["outcome"]): Ran => ({ name: PAGE_TOOL.name, label: PAGE_TOOL.label(given), input: given, outcome, spent: turn.usage, beforeHash: null });
    const ran = held
      ? unrun({ ok: false, error: { code: "TAKEN_OVER", message: `not carried out: ${TAKEN_OVER}` } })
      : parsed.ok
        ? await runner.call(PAGE_TOOL, parsed.input, turn.usage)
        : unrun(parsed.outcome);
    const { outcome } = ran;
    const why = outcome.error ? `${outcome.error.code}: ${outcome.error.message}` : null;
    // What the model planned after a call that did not run assumed it had.
    if (why && !held) this.planner.discard?.(why);
    const step = await runner.record(ran, stepText(turn.progress, why && `failed: ${why}`, TEXT_CHARS), turn.thought, null, turn.planner);
    this.history.push(`Step ${step.index}: ${ran.label} "${action.intent || turn.progress}" → ${why ? `failed: ${why}` : "answered"}`);
    return { name: given.name, ok: outcome.ok, text: why ?? outcome.text ?? "" };
  }

  /** AWAITING_USER, then a fresh look at the screen the person has changed. */
  private async askUser(run: RunContext, answer: string): Promise<void> {
    const reply = await run.gate.askUser(answer);
    this.history.push(`The person was asked to act and answered: ${reply}`);
    await run.hands.capture();
  }

  private async record(run: RunContext, turn: PlannerTurn & { action: Action }, shot: Screenshot, url: string | null, outcome: StepOutcome, carried: CarriedOut | null = null): Promise<void> {
    const usage = {
      input_tokens: turn.usage.input_tokens + (outcome.usage?.input_tokens ?? 0),
      output_tokens: turn.usage.output_tokens + (outcome.usage?.output_tokens ?? 0),
    };
    const note = outcome.failure ? `failed: ${outcome.failure}` : outcome.unverified ? `not clicked: ${NOT_PLACED}` : null;
    const step = await run.steps.commit(shot, {
      text: stepText(turn.progress, note, TEXT_CHARS),
      thought: turn.thought,
      action: turn.action,
      tool: null,
      cursor_x: outcome.at?.x ?? null,
      cursor_y: outcome.at?.y ?? null,
      url,
      effect: outcome.effect ?? null,
      verification: outcome.verification ?? null,
      planner: turn.planner,
      usage,
      carried_out: carried,
    });
    this.history.push(historyLine(step, turn.action, turn.progress, outcome));
  }
}

/** The page's address as the model may read it: a secret typed into a form that is only read (GET) would be in it. */
async function currentUrl(run: RunContext): Promise<string | null> {
  const url = await run.computer.currentUrl();
  return url === null ? null : run.secrets.conceal(url);
}

/** The action at the point where it happened (the pointer check may have corrected it); a drag keeps its end. */
function withPoint(action: Action, at: { x: number; y: number }): Action {
  return action.type === "upload" || !actionPoint(action) ? action : ({ ...action, args: { ...action.args, x: at.x, y: at.y } } as Action);
}

function lookOf(caps: PlannerCapabilities): PointerLook | null {
  return caps.checkPointer ? { imageSize: caps.imageSize, check: caps.checkPointer } : null;
}
