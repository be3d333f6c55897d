// Follow-up messages (seed 001): what the person tells a task while it runs. Each is stored in
// the chat and announced at once (task.follow_up); it waits here until the driver plans its next
// step, which takes every waiting one, and is then announced as read at that step
// (task.follow_up_read), so the chat can show that the agent has it. A run that goes on from the
// task — resumed after a restart, or continued — is told them again, read or not.
import type { Logger } from "pino";
import type { ChatMessage } from "../protocol/index.ts";
import type { TaskRecord } from "./task-record.ts";

export class FollowUps {
  private waiting: ChatMessage[] = [];
  private readonly read: string[] = [];

  constructor(
    private readonly record: TaskRecord,
    private readonly log: Logger,
  ) {}

  /** Stores the person's message and announces it; the agent reads it at its next step. */
  async add(text: string, id: string): Promise<void> {
    const { record } = this;
    const message = record.message("user", text, id);
    this.waiting.push(message);
    // Queued together, so that no read can be announced before the message is.
    const stored = record.saveMessage(message);
    const told = record.emit({ type: "task.follow_up", task_id: record.current.id, message });
    try {
      await Promise.all([stored, told]);
    } catch (error) {
      // The sender is told it failed and may send it again: the agent must not read it as well.
      this.waiting = this.waiting.filter((waiting) => waiting !== message);
      throw error;
    }
  }

  /**
   * The follow-ups not read yet, now read for step `step`, oldest first. The announcements are
   * written behind the loop, in order with its other writes.
   */
  take(step: number): string[] {
    const taken = this.waiting;
    this.waiting = [];
    for (const message of taken) {
      this.record
        .emit({ type: "task.follow_up_read", task_id: this.record.current.id, message_id: message.id, step })
        .catch((error: unknown) => this.log.warn({ err: error }, "could not announce that a follow-up was read"));
      this.read.push(message.text);
    }
    return taken.map((message) => message.text);
  }

  /**
   * Follow-ups of the run this one goes on from (a restart, Continue): read already, told before
   * any new one. Those still waiting here (sent while a resumed task waited for its place) are
   * told once, when read.
   */
  recall(earlier: readonly ChatMessage[]): void {
    const waiting = new Set(this.waiting.map((message) => message.id));
    this.read.unshift(...earlier.filter((message) => !waiting.has(message.id)).map((message) => message.text));
  }

  /** Every follow-up read so far, oldest first. */
  get told(): readonly string[] {
    return this.read;
  }
}
