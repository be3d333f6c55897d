// Owns the order of the chat: the stored messages become user bubbles, earlier answers and one
// run card per task, placed after the task's latest message so that, after "I've done it", the
// same card continues below the person's reply. The assistant's reply that is still streaming
// (or just ended, before the stored messages are read again) comes last; a reply that failed
// stays where it failed, before anything the person wrote later. The person's follow-ups to a
// running task are bubbles too (the card continues below them), each with whether the agent has
// read it yet.
import type { ChatMessage } from "../protocol.ts";
import { isActive, type FollowUps, type ReplyState, type RunState } from "./session-state.ts";

/** A follow-up's state: the step whose request read it (null until then), and whether the task can still read it. */
export interface FollowUpState {
  readAt: number | null;
  open: boolean;
}

export type ChatItem =
  | { kind: "user"; message: ChatMessage; followUp?: FollowUpState }
  | { kind: "answer"; message: ChatMessage }
  | { kind: "run"; taskId: string }
  | { kind: "reply"; reply: ReplyState }
  | { kind: "failure"; reply: ReplyState };

export function chatItems(
  messages: readonly ChatMessage[],
  runs: Readonly<Record<string, RunState>>,
  replies: readonly ReplyState[] = [],
  followUps: FollowUps = {},
): ChatItem[] {
  const lastOfTask = new Map<string, number>();
  messages.forEach((message, index) => {
    if (message.task_id) lastOfTask.set(message.task_id, index);
  });
  const failures = replies.filter((reply) => reply.status === "failed");
  const items: ChatItem[] = [];
  messages.forEach((message, index) => {
    const taskId = message.task_id;
    const isLast = taskId !== null && lastOfTask.get(taskId) === index;
    if (message.kind === "user_text") {
      const followUp = taskId === null ? undefined : followUpOf(runs[taskId], followUps[message.id]);
      items.push(...takeFailures(failures, (endedAt) => endedAt < message.created_at), { kind: "user", message, ...(followUp ? { followUp } : {}) });
    }
    if (message.kind === "assistant_answer" && !(isLast && taskId !== null && showsAnswer(runs[taskId]))) {
      items.push({ kind: "answer", message });
    }
    if (isLast) items.push({ kind: "run", taskId });
  });
  items.push(...takeFailures(failures, () => true));
  const stored = new Set(messages.map((message) => message.id));
  for (const reply of replies) {
    if (reply.status === "streaming") items.push({ kind: "reply", reply });
    if (reply.status === "completed" && reply.message && !stored.has(reply.message.id)) items.push({ kind: "answer", message: reply.message });
  }
  return items;
}

function takeFailures(failures: ReplyState[], before: (endedAt: string) => boolean): ChatItem[] {
  const taken = failures.filter((reply) => before(reply.endedAt ?? ""));
  for (const reply of taken) failures.splice(failures.indexOf(reply), 1);
  return taken.map((reply) => ({ kind: "failure", reply }));
}

function followUpOf(run: RunState | undefined, readAt: number | null | undefined): FollowUpState | undefined {
  return run && readAt !== undefined ? { readAt, open: isActive(run.task.status) } : undefined;
}

/** The card itself shows the task's latest answer while the task is completed or waiting. */
function showsAnswer(run: RunState | undefined): boolean {
  return run?.task.status === "completed" || run?.task.status === "awaiting_user";
}
