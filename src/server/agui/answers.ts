// A run's `resume` entries: the person's answers to the interrupts that ended the run before (a
// task waiting for them to act, or for their decision on an action), given to the task as the
// UI's "I've done it", Allow and Deny are — also to a task that waits since a restart. An
// abandoned (`cancelled`) interrupt stops its task: nothing is waited for any more.
import type { ResumeEntry } from "@ag-ui/core";
import { z } from "zod";
import type { Runtime } from "../../agent/runtime.ts";
import { AppError } from "../../core/errors.ts";
import type { Task } from "../../protocol/index.ts";
import type { Store } from "../../store/store.ts";
import { parseWith } from "../http-error.ts";
import { isAskOf } from "./translate.ts";

const askAnswerSchema = z.union([z.string().trim().max(20_000), z.object({ text: z.string().trim().max(20_000).optional() })]).optional();
const approvalAnswerSchema = z.object({ approved: z.boolean() });

/** Answers each entry; resolves with the tasks it answered, for the run to follow. */
export async function answerInterrupts(store: Store, runtime: Runtime, sessionId: string, entries: ResumeEntry[]): Promise<Task[]> {
  const waiting = await store.listTasks(sessionId, "awaiting_user");
  const answered: Task[] = [];
  for (const entry of entries) {
    const task = waiting.find((t) => (t.approval ? t.approval.id === entry.interruptId : isAskOf(entry.interruptId, t.id)));
    if (!task) {
      throw new AppError("TASK_NOT_AWAITING_USER", `No task of session ${sessionId} waits on interrupt ${entry.interruptId}: it was answered elsewhere, or its task has ended. Start a new run instead.`);
    }
    await answer(store, runtime, task, entry);
    answered.push(task);
  }
  return answered;
}

async function answer(store: Store, runtime: Runtime, task: Task, entry: ResumeEntry): Promise<void> {
  // Since a restart the task waits in the store only: a fresh run of it takes the answer.
  const stored = !runtime.commands.isActive(task.id) && !runtime.commands.queued;
  if (entry.status === "cancelled") {
    if (stored) await runtime.commands.stopStored(task);
    else await runtime.commands.stop(task.id);
    return;
  }
  if (task.approval) {
    const { approved } = parseWith(approvalAnswerSchema, entry.payload, `resume payload of ${entry.interruptId}`);
    if (stored) await runtime.resumeStored(task, await store.listSteps(task.id), { kind: "approval", approvalId: task.approval.id, approved });
    else if (!(await runtime.commands.decide(task.id, task.approval.id, approved))) throw notWaiting(task);
    return;
  }
  const payload = parseWith(askAnswerSchema, entry.payload, `resume payload of ${entry.interruptId}`);
  const text = (typeof payload === "string" ? payload : payload?.text) || runtime.commands.ackText;
  if (stored) await runtime.resumeStored(task, await store.listSteps(task.id), { kind: "ack", text });
  else if (!(await runtime.commands.acknowledge(task.id, text))) throw notWaiting(task);
}

function notWaiting(task: Task): AppError {
  return new AppError("TASK_NOT_AWAITING_USER", `Task ${task.id} is no longer waiting for you; start a new run instead.`);
}
