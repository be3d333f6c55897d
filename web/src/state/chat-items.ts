// Owns the order of the chat: the stored messages become user bubbles, earlier answers and one
// run card per task, placed after the task's latest message so that, after "I've done it", the
// same card continues below the person's reply.
import type { ChatMessage } from "../protocol.ts";
import type { RunState } from "./session-state.ts";

export type ChatItem =
  | { kind: "user"; message: ChatMessage }
  | { kind: "answer"; message: ChatMessage }
  | { kind: "run"; taskId: string };

export function chatItems(messages: readonly ChatMessage[], runs: Readonly<Record<string, RunState>>): ChatItem[] {
  const lastOfTask = new Map<string, number>();
  messages.forEach((message, index) => {
    if (message.task_id) lastOfTask.set(message.task_id, index);
  });
  const items: ChatItem[] = [];
  messages.forEach((message, index) => {
    const taskId = message.task_id;
    const isLast = taskId !== null && lastOfTask.get(taskId) === index;
    if (message.kind === "user_text") items.push({ kind: "user", message });
    if (message.kind === "assistant_answer" && !(isLast && taskId !== null && showsAnswer(runs[taskId]))) {
      items.push({ kind: "answer", message });
    }
    if (isLast) items.push({ kind: "run", taskId });
  });
  return items;
}

/** The card itself shows the task's latest answer while the task is completed or waiting. */
function showsAnswer(run: RunState | undefined): boolean {
  return run?.task.status === "completed" || run?.task.status === "awaiting_user";
}
