// The task's record as the run keeps it: every change is saved, and every event goes out through
// the recorder, all in the order they were made — one queue of writes per task, so a write may
// be left to run behind the loop (a step's) and still land before anything recorded after it.
// The messages a run adds to the chat (its answers, the person's replies) are made here with the
// task's ids.
import { newId, nowIso } from "../core/ids.ts";
import type { AgentEvent, ChatMessage, Task } from "../protocol/index.ts";
import type { RunRecorder } from "./ports.ts";

export class TaskRecord {
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private task: Task,
    readonly recorder: RunRecorder,
  ) {}

  get current(): Task {
    return this.task;
  }

  /** Changes the task now and saves it once the writes before have run. */
  update(patch: Partial<Task>): Promise<void> {
    this.change(patch);
    return this.queue(() => this.saveTask());
  }

  /** Changes the task in memory only: the write that saves it is the caller's to queue. */
  change(patch: Partial<Task>): void {
    this.task = { ...this.task, ...patch, updated_at: nowIso() };
  }

  /** Saves the task as it is now: never older than any change made before. */
  saveTask(): Promise<void> {
    return this.recorder.saveTask(this.task);
  }

  emit(event: AgentEvent): Promise<void> {
    return this.queue(() => this.recorder.emit(this.task.session_id, event));
  }

  /** Adds a message of the task to its chat: the agent's answer, or the person's reply. */
  addMessage(role: ChatMessage["role"], text: string, id?: string): Promise<void> {
    return this.saveMessage(this.message(role, text, id));
  }

  /** A message of the task, made now with the task's ids: the agent's answer, or the person's reply or follow-up. */
  message(role: ChatMessage["role"], text: string, id = newId("msg")): ChatMessage {
    return {
      id,
      session_id: this.task.session_id,
      task_id: this.task.id,
      role,
      kind: role === "user" ? "user_text" : "assistant_answer",
      text,
      attachments: [],
      created_at: nowIso(),
    };
  }

  saveMessage(message: ChatMessage): Promise<void> {
    return this.queue(() => this.recorder.addMessage(message));
  }

  /** Runs `write` after every write queued before it; settles as it does. A failed write holds up none after it. */
  queue(write: () => Promise<void>): Promise<void> {
    const written = this.writes.then(write);
    this.writes = written.catch(() => undefined);
    return written;
  }
}
