// Where a task waits for the person (seed 000 §3.3 AWAITING_USER): "I've done it" after a request
// to act, the decision on an approval, and a takeover (seed 004 §2.1): the person asks for the
// screen, the agent carries out nothing it planned from then on, stops at its next pause point —
// between its steps, never inside one — and waits until they hand it back. The clock stops while
// they act or decide, and each wait ends at once on Stop.
import { raceAbort } from "../core/abort.ts";
import { newId } from "../core/ids.ts";
import type { ScreenHolder } from "../computers/computer.ts";
import type { ApprovalRequest } from "../hands/hands.ts";
import type { Approval, FrameRef } from "../protocol/index.ts";
import type { Budget } from "./budget.ts";
import type { TaskRecord } from "./task-record.ts";

/** What the model is told after a takeover. */
export const TAKEOVER_NOTE = "The person took over the screen and handed it back; what it shows may have changed.";
/** Why an action planned before a takeover was not carried out. */
export const TAKEN_OVER = "the person took over the screen before it";

export class PersonGate {
  private ackWaiter: ((reply: { text: string; messageId: string }) => void) | null = null;
  private decisionWaiter: { approvalId: string; decide: (approved: boolean) => void } | null = null;
  private takeoverWanted = false;
  private handBackWaiter: (() => void) | null = null;
  /** Tells the computer who has the screen now, for computers that show it (the extension's overlay). */
  handOver: (to: ScreenHolder) => Promise<void> = async () => undefined;

  constructor(
    private readonly record: TaskRecord,
    private readonly budget: Budget,
    private readonly signal: AbortSignal,
  ) {}

  /** Resumes a task that waits for the person, their reply stored as `messageId`; false if it is not waiting. */
  acknowledge(text: string, messageId = newId("msg")): boolean {
    if (!this.ackWaiter || this.signal.aborted) return false;
    this.ackWaiter({ text, messageId });
    this.ackWaiter = null;
    return true;
  }

  /** Decides a pending approval; false if there is none with this id. */
  decide(approvalId: string, approved: boolean): boolean {
    if (this.decisionWaiter?.approvalId !== approvalId || this.signal.aborted) return false;
    this.decisionWaiter.decide(approved);
    this.decisionWaiter = null;
    return true;
  }

  /**
   * The person asks for the screen while the agent runs: it stops at its next pause point. False
   * when the task is not running (it waits for the person already, or has ended).
   */
  takeOver(): boolean {
    if (this.signal.aborted) return false;
    if (this.takeoverWanted) return true;
    // `takeover` without a wish for it: handed back a moment ago, the agent about to run again. A
    // request to act or an approval being asked (its status not written yet) is the person's turn already.
    const { status } = this.record.current;
    if (this.ackWaiter || this.decisionWaiter || (status !== "running" && status !== "takeover")) {
      // The extension's overlay turned to the person at their click: it shows who has the screen again.
      this.tell(this.holder);
      return false;
    }
    this.takeoverWanted = true;
    return true;
  }

  /** The person hands the screen back (or changes their mind before the agent stopped); false when they did not have it. */
  handBack(): boolean {
    if (!this.takeoverWanted || this.signal.aborted) return false;
    this.takeoverWanted = false;
    // Before the agent stopped, the overlay that turned at their click shows who has the screen.
    if (!this.handBackWaiter) this.tell(this.holder);
    this.handBackWaiter?.();
    this.handBackWaiter = null;
    return true;
  }

  /** `handOver` outside the task's own course: the screen is shown as it is; a failure is the next operation's to report. */
  private tell(to: ScreenHolder): void {
    this.handOver(to).catch(() => undefined);
  }

  /**
   * The person asked for the screen and has not handed it back: what the agent planned before
   * must not be carried out on a screen they now use.
   */
  get takeoverAsked(): boolean {
    return this.takeoverWanted;
  }

  /** Who drives the screen now: nobody while an approval waits for the person's decision. */
  private get holder(): ScreenHolder {
    return this.personHasScreen ? "person" : this.decisionWaiter ? "nobody" : "agent";
  }

  /** Whether the person's own input goes to the screen now: they have taken it over, or the agent asked them to act. */
  get personHasScreen(): boolean {
    return this.handBackWaiter !== null || this.ackWaiter !== null;
  }

  /**
   * Where a driver may stop between its steps: when the person asked for the screen, the task is
   * theirs (`takeover`) until they hand it back. True when it was: the screen may have changed,
   * so the agent must look again before it acts.
   */
  async pausePoint(): Promise<boolean> {
    if (!this.takeoverWanted) return false;
    const { record, budget } = this;
    budget.pauseClock();
    const handedBack = new Promise<void>((resolve) => (this.handBackWaiter = resolve));
    await record.update({ status: "takeover" });
    await record.emit({ type: "task.takeover", task_id: record.current.id });
    await this.handOver("person");
    await raceAbort(handedBack, this.signal);
    await this.handOver("agent");
    await record.update({ status: "running" });
    await record.emit({ type: "task.resumed", task_id: record.current.id });
    budget.startClock();
    return true;
  }

  /** Asks the person to act and waits for their reply ("I've done it", or what they wrote). */
  async askUser(answer: string): Promise<string> {
    const { record, budget } = this;
    // A takeover asked for meanwhile is this: the screen is the person's until they reply.
    this.takeoverWanted = false;
    budget.pauseClock();
    // Waiting from the start: a message the person sends as the question goes out is its answer, not a follow-up.
    const replied = new Promise<{ text: string; messageId: string }>((resolve) => (this.ackWaiter = resolve));
    await record.update({ status: "awaiting_user", answer });
    await record.addMessage("assistant", answer);
    await record.emit({ type: "task.awaiting_user", task_id: record.current.id, answer, show_ack_button: true });
    await this.handOver("person");
    const reply = await raceAbort(replied, this.signal);
    await this.handOver("agent");
    await record.addMessage("user", reply.text, reply.messageId);
    await record.update({ status: "running", answer: null });
    await record.emit({ type: "task.resumed", task_id: record.current.id });
    budget.startClock();
    return reply.text;
  }

  /**
   * Waits for the person's decision on a flagged action. `goesOnWhenDenied`: a refusal is an
   * answer the agent continues from (the tool agent), not the end of the task.
   */
  async approve(approval: Approval, goesOnWhenDenied = false): Promise<boolean> {
    const { record, budget } = this;
    budget.pauseClock();
    // Two checks may find the same risk in the same words: each reason is said once.
    const why = [...new Set(approval.checks.map((c) => c.message || c.code))].join("\n");
    // Waiting from the start: a decision made the moment the request is seen is not lost.
    const decision = new Promise<boolean>((decide) => (this.decisionWaiter = { approvalId: approval.id, decide }));
    await record.update({ status: "awaiting_user", approval, answer: why });
    await record.emit({ type: "approval.requested", task_id: record.current.id, approval });
    await this.handOver("nobody");
    const approved = await raceAbort(decision, this.signal);
    await this.handOver("agent");
    await record.emit({ type: "approval.resolved", task_id: record.current.id, approval_id: approval.id, approved });
    await record.update({ status: "running", approval: null, answer: null });
    if (approved || goesOnWhenDenied) {
      await record.emit({ type: "task.resumed", task_id: record.current.id });
      budget.startClock();
    }
    return approved;
  }

  /** An action the approval policy asks about (seed 000 §9), shown on the screen before it; a refusal goes back to the model. */
  approveAction(request: ApprovalRequest, frame: FrameRef): Promise<boolean> {
    const checks = request.risks.map((risk, i) => ({ id: `risk_${i + 1}`, code: risk.kind, message: `${request.intent ? `${request.intent}: it` : "It"} ${risk.message}.` }));
    const { action, intent, url, at, box, fromPage, frameOrigin } = request;
    return this.approve({ id: newId("appr"), checks, action, tool: null, intent, url, frame, at, box, from_page: fromPage, frame_origin: frameOrigin }, true);
  }
}
