// Replay of a planner's task (Run again): each recorded action is done again through the same
// hands and the same checked action, without the model. In a browser, an action whose pointer was
// aimed at an element goes to that element where it is now (found by its recorded locator or
// XPath); when the element is gone, only that step asks the model, through the page view (the act
// tool names the element again from the step's intent). A call the planner made of one of the
// page's own tools (page_tool) runs again through its tool, as recorded. Steps that did not run
// are skipped.
import { AppError } from "../../core/errors.ts";
import type { Performed } from "../../hands/hands.ts";
import type { ChatModel } from "../../models/chat/chat-model.ts";
import { actionPoint, describeStep, isFinal, type Action, type CarriedOut, type ElementTarget, type ProgressStep, type Usage } from "../../protocol/index.ts";
import { findTool, everyTool, parseInput, recordedTool, type AgentTool } from "../../tools/index.ts";
import type { Driver, Outcome, RunContext } from "../driver.ts";
import { ToolRunner } from "../tool-runner.ts";
import { stepText, summary } from "./replay.ts";

const NO_USAGE: Usage = { input_tokens: 0, output_tokens: 0 };
const TOOLS = everyTool();
const ACT = findTool(TOOLS, "act")!;

export class ActionReplayDriver implements Driver {
  readonly label: string;

  constructor(
    /** Asked only to find again an element that is gone. */
    private readonly model: ChatModel,
    /** The steps of the task being replayed, in order. */
    private readonly recording: ProgressStep[],
  ) {
    this.label = `${model.name} (replay)`;
  }

  async drive(run: RunContext): Promise<Outcome> {
    const { hands, computer } = run;
    const runner = new ToolRunner(run, this.model);
    await computer.web?.waitForLoad(run.config.browser.navigationTimeoutMs);
    runner.look(await hands.capture());
    const replayed: number[] = [];
    const healed: number[] = [];
    for (const step of this.recording) {
      const { action, carried_out: carried } = step;
      if (action?.type === "done") return { status: "completed", answer: `${action.args.answer}\n\n${summary(replayed, healed)}` };
      if (action?.type === "needs_user") {
        await run.gate.askUser(action.args.answer);
        runner.look(await hands.capture());
        continue;
      }
      const called = calledAgain(step);
      if (called) {
        run.budget.assertStepRoom(run.steps.count);
        if (await run.gate.pausePoint()) runner.look(await hands.capture());
        const ran = await runner.call(called.tool, called.input, NO_USAGE);
        await runner.record(ran, stepText(step, "replayed", true, await computer.currentUrl()), step.thought, "replayed");
        if (!ran.outcome.ok) return { status: "failed", code: ran.outcome.error?.code ?? "ACTION_FAILED", message: `Replaying step ${step.index} (${describeStep(step)}) failed: ${ran.outcome.error?.message}` };
        replayed.push(step.index);
        continue;
      }
      if (!carried) continue;
      run.budget.assertStepRoom(run.steps.count);
      if (await run.gate.pausePoint()) runner.look(await hands.capture());
      const found = carried.element && computer.web ? await computer.web.findTarget(carried.element, { scroll: true }) : null;
      if (carried.element && computer.web && !found?.box) {
        const heal = healing(step, carried);
        if (!heal) return { status: "failed", code: "INVALID_TARGET", message: `Step ${step.index} (${describeStep(step)}) acted on an element that is gone, and a ${carried.action.type} cannot be healed.` };
        const ran = await runner.call(ACT, { action: heal }, NO_USAGE);
        await runner.record(ran, stepText(step, "healed", true, await computer.currentUrl()), step.thought, "healed");
        if (!ran.outcome.ok) return { status: "failed", code: ran.outcome.error?.code ?? "ACTION_FAILED", message: `Replaying step ${step.index} (${describeStep(step)}) failed: ${ran.outcome.error?.message}` };
        healed.push(step.index);
        runner.look(await hands.capture());
        continue;
      }
      const deed = found?.box ? towards(carried.action, found.box) : carried.action;
      if (isFinal(deed)) continue;
      let performed: Performed;
      try {
        performed = await hands.perform({ kind: "action", action: deed, intent: deed.intent, element: found }, { look: null, requested: deed.requires_verification });
      } catch (error) {
        if (!(error instanceof AppError) || (error.code !== "ACTION_FAILED" && error.code !== "DENIED")) throw error;
        return { status: "failed", code: error.code, message: `Replaying step ${step.index} (${describeStep(step)}) failed: ${error.message}` };
      }
      hands.takeChecks();
      if (performed.kind === "unverified") return { status: "failed", code: "INVALID_TARGET", message: `Replaying step ${step.index} (${describeStep(step)}): the pointer could not be placed on its element.` };
      const url = await computer.currentUrl();
      await run.steps.commit(performed.after, {
        text: stepText(step, "replayed", true, url),
        thought: step.thought,
        action: step.action,
        tool: null,
        cursor_x: performed.at?.x ?? null,
        cursor_y: performed.at?.y ?? null,
        url,
        effect: performed.effect,
        verification: performed.verification,
        planner: this.label,
        usage: performed.usage,
        carried_out: { action: performed.at ? at(deed, performed.at) : deed, element: found ?? carried.element },
      });
      runner.look(performed.after);
      replayed.push(step.index);
    }
    return { status: "failed", code: "TASK_INCOMPLETE", message: `The recording ends without done. ${summary(replayed, healed)}` };
  }
}

/**
 * The tool and input of a step the planner made through a tool that ran and acted on no element
 * of the page (a call of one of the page's own tools), to be called again as recorded; null for
 * any other step.
 */
function calledAgain(step: ProgressStep): { tool: AgentTool; input: unknown } | null {
  const record = step.tool;
  if (!record?.ok || record.targets.length > 0) return null;
  const tool = recordedTool(TOOLS, record.name, record.input);
  const parsed = tool && !tool.looks && !tool.ends ? parseInput(tool, record.input) : null;
  return tool && parsed?.ok ? { tool, input: parsed.input } : null;
}

/** What the act tool is asked to do when the element is gone: the action, named by the step's intent. */
function healing(step: ProgressStep, carried: CarriedOut): string | null {
  const what = carried.action.intent || step.text;
  switch (carried.action.type) {
    case "click":
      return carried.action.args.button === "right" ? null : `click ${what}`;
    case "double_click":
    case "triple_click":
      return `click ${what}`;
    case "move":
      return `hover ${what}`;
    default:
      return null;
  }
}

/** The action moved to where its element is now: the centre of its box (a drag keeps its recorded points). */
function towards(action: Action, box: NonNullable<ElementTarget["box"]>): Action {
  const point = actionPoint(action);
  if (!point || action.type === "drag" || action.type === "upload") return action;
  return at(action, { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) });
}

function at(action: Action, point: { x: number; y: number }): Action {
  return action.type === "upload" || !actionPoint(action) ? action : ({ ...action, args: { ...action.args, x: point.x, y: point.y } } as Action);
}
