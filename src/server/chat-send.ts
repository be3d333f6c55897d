// The person's message as the chat and an AG-UI run both take it: the chat assistant's submission
// made from the send body, and the answer it gives the session's task that has waited for the
// person since an earlier server process died, instead of starting another.
import type { z } from "zod";
import type { ChatSubmission } from "../agent/chat-agent.ts";
import type { Runtime } from "../agent/runtime.ts";
import { AppError } from "../core/errors.ts";
import type { sendBodySchema, Task } from "../protocol/index.ts";
import type { Store } from "../store/store.ts";

export function submissionOf(body: z.output<typeof sendBodySchema>): ChatSubmission {
  return {
    sessionId: body.session_id,
    text: body.text,
    attachments: body.attachments,
    startUrl: body.start_url,
    model: body.model,
    mode: body.mode,
    agentMode: body.agent_mode,
    computer: body.computer,
    extensionClient: body.extension_client_id,
    cdp: body.cdp_url || body.cdp_target_id ? { url: body.cdp_url, targetId: body.cdp_target_id } : undefined,
  };
}

/** The session's task that waits for the person (an answer or a decision) since an earlier server process, if any. */
async function waitingSinceRestart(store: Store, runtime: Runtime, sessionId: string): Promise<Task | undefined> {
  // With workers, a task that waits for the person is held by its worker, not by the store alone.
  if (runtime.activeTask(sessionId) || runtime.commands.queued) return undefined;
  return (await store.listTasks(sessionId, "awaiting_user")).find((task) => !runtime.commands.isActive(task.id));
}

/**
 * The person's message answers the session's task that has waited for them since an earlier
 * server process, instead of starting another: that task, going on again, or null when none waits
 * so. A wait for a decision takes only the decision (`howToDecide` says how, in the message's
 * channel), and a waiting task takes no files.
 */
export async function answerWaitingSinceRestart(
  store: Store,
  runtime: Runtime,
  message: { sessionId: string; text: string; attachments: unknown[]; messageId?: string },
  howToDecide: string,
): Promise<Task | null> {
  const waiting = await waitingSinceRestart(store, runtime, message.sessionId);
  if (!waiting) return null;
  if (waiting.approval) throw new AppError("FOLLOW_UP_REFUSED", `Task ${waiting.id} waits for your decision on an action: ${howToDecide}, or stop the task, first.`);
  if (message.attachments.length > 0) throw new AppError("FOLLOW_UP_REFUSED", `Task ${waiting.id} waits for you and cannot take files; send them once it has ended.`);
  await runtime.resumeStored(waiting, await store.listSteps(waiting.id), { kind: "ack", text: message.text, ...(message.messageId ? { messageId: message.messageId } : {}) });
  return waiting;
}
