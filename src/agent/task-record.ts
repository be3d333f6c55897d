// The task's record as the run keeps it: every change is saved, and every event goes out through
// the recorder in order. The messages a run adds to the chat (its answers, the person's replies)
// are made here with the task's ids.
import { newId, nowIso } from "../core/ids.ts";
import type { AgentEvent, ChatMessage, Task } from "../protocol/index.ts";
import type { RunRecorder } from "./ports.ts";

export class TaskRecord {
  constructor(
    private task: Task,
    readonly recorder: RunRecorder,
  ) {}

  get current(): Task {
    return this.task;
  }

  async update(patch: Partial<Task>): Promise<void> {
    this.task = { ...this.task, ...patch, updated_at: nowIso() };
    await this.recorder.saveTask(this.task);
  }

  emit(event: AgentEvent): Promise<void> {
    return this.recorder.emit(this.task.session_id, event);
  }

  /** Adds a message of the task to its chat: the agent's answer, or the person's reply. */
  addMessage(role: ChatMessage["role"], text: string): Promise<void> {
    return this.recorder.addMessage({
      id: newId("msg"),
      session_id: this.task.session_id,
      task_id: this.task.id,
      role,
      kind: role === "user" ? "user_text" : "assistant_answer",
      text,
      attachments: [],
      created_at: nowIso(),
    });
  }
}
