// A task a worker takes up that was waiting for the person when the worker before died (issue 38).
// It is held still waiting: its question, or the approval it asked for, stays as the chat shows it,
// and the person's answer reaches this worker as any command to the task does. The answer — or Stop
// — settles `answered`; the Runtime then resumes the task here as it resumes one after a restart.
import { newId } from "../core/ids.ts";
import type { Task } from "../protocol/index.ts";
import type { CommandReply, TaskCommand } from "./ports.ts";
import type { PersonAnswer } from "./resumption.ts";

/** What the wait ended with: the person's answer, Stop and its reason, or this worker letting the task go (it shuts down). */
export type WaitEnd = { kind: "answered"; answer: PersonAnswer } | { kind: "stopped"; reason: string } | { kind: "released" };

export class HeldWait {
  readonly ended: Promise<WaitEnd>;
  private settle: ((end: WaitEnd) => void) | null = null;

  constructor(readonly task: Task) {
    this.ended = new Promise<WaitEnd>((resolve) => (this.settle = resolve));
  }

  /** The person's command while the task waits; only an answer that fits its wait, or Stop, takes. */
  reply<C extends TaskCommand>(command: C): CommandReply<C> {
    return this.replyOf(command) as CommandReply<C>;
  }

  private replyOf(command: TaskCommand): boolean | { messageId: string; answered: boolean } | null {
    const { approval } = this.task;
    switch (command.kind) {
      case "stop":
        return this.end({ kind: "stopped", reason: command.reason ?? "stopped by the user" });
      case "acknowledge":
        return !approval && this.end({ kind: "answered", answer: { kind: "ack", text: command.text } });
      case "tell": {
        // A wait for a decision takes only the decision.
        if (approval) return null;
        const messageId = newId("msg");
        return this.end({ kind: "answered", answer: { kind: "ack", text: command.text, messageId } }) ? { messageId, answered: true } : null;
      }
      case "decide":
        return approval?.id === command.approvalId && this.end({ kind: "answered", answer: { kind: "approval", approvalId: command.approvalId, approved: command.approved } });
      case "takeOver":
      case "handBack":
      case "personInput":
        return false;
    }
  }

  /** This worker shuts down: the task goes back to the queue, for another worker to hold. */
  release(): void {
    this.end({ kind: "released" });
  }

  /** False once the wait has ended: a second answer finds nothing to answer. */
  private end(end: WaitEnd): boolean {
    const settle = this.settle;
    if (!settle) return false;
    this.settle = null;
    settle(end);
    return true;
  }
}
