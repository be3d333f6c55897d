// POST /api/chat/send (a message to a session whose task waits for the person since a restart
// answers it, as it does a task running here), /stop, /approve, /ack-user-action (seed 000 §7.1), /replay (Run again), /retry
// and /continue (an ended task's Retry and Continue, issue 16), and
// the person's takeover (seed 004 §2): /takeover, /resume and /input, their clicks and keys on the
// live view while the screen is theirs.
import { Hono } from "hono";
import { z } from "zod";
import type { ChatAgent } from "../../agent/chat-agent.ts";
import type { Runtime } from "../../agent/runtime.ts";
import { AppError } from "../../core/errors.ts";
import { newId } from "../../core/ids.ts";
import { approveBodySchema, continueBodySchema, inputBodySchema, sendBodySchema, stopBodySchema, taskActionBodySchema, type SendReply, type Task } from "../../protocol/index.ts";
import type { Store } from "../../store/store.ts";
import { answerWaitingSinceRestart, submissionOf } from "../chat-send.ts";
import { notFound, parseBody } from "../http-error.ts";

const ackBodySchema = taskActionBodySchema.extend({ text: z.string().trim().min(1).max(200).optional() });

export function chatRoutes(store: Store, runtime: Runtime, chat: ChatAgent) {
  /** The task, and whether it waits for the person since an earlier server process (Runtime.resumeStored). */
  const requireActive = async (taskId: string): Promise<{ task: Task; stored: boolean }> => {
    const task = await store.getTask(taskId);
    if (!task) throw notFound("task", taskId);
    // With workers, a task that has not ended is held by one of them.
    if (runtime.commands.holds(task)) return { task, stored: false };
    if (task.status === "awaiting_user") return { task, stored: true };
    throw new AppError("TASK_FINISHED", `Task ${taskId} has already ended (${task.status}).`);
  };

  return new Hono()
    .post("/send", async (c) => {
      const body = await parseBody(c, sendBodySchema);
      const messageId = newId("msg");
      const answered = await answerWaitingSinceRestart(store, runtime, { sessionId: body.session_id, text: body.text, attachments: body.attachments, messageId }, "allow or deny it");
      if (answered) return c.json<SendReply>({ session_id: body.session_id, message_id: messageId, task_id: answered.id }, 202);
      return c.json(await chat.send(submissionOf(body)), 202);
    })
    .post("/replay", async (c) => {
      const { task_id } = await parseBody(c, taskActionBodySchema);
      const task = await store.getTask(task_id);
      if (!task) throw notFound("task", task_id);
      const again = await chat.runAgain(task, await store.listSteps(task_id));
      const reply: SendReply = { session_id: task.session_id, message_id: again.message.id, task_id: again.task.id };
      return c.json(reply, 202);
    })
    .post("/retry", async (c) => {
      const { task_id } = await parseBody(c, taskActionBodySchema);
      const task = await store.getTask(task_id);
      if (!task) throw notFound("task", task_id);
      const again = await chat.retry(task);
      const reply: SendReply = { session_id: task.session_id, message_id: again.message.id, task_id: again.task.id };
      return c.json(reply, 202);
    })
    .post("/continue", async (c) => {
      const { task_id, extra_steps } = await parseBody(c, continueBodySchema);
      const task = await store.getTask(task_id);
      if (!task) throw notFound("task", task_id);
      const next = await chat.continueTask(task, await store.listSteps(task_id), extra_steps);
      const reply: SendReply = { session_id: task.session_id, message_id: next.message.id, task_id: next.task.id };
      return c.json(reply, 202);
    })
    .post("/stop", async (c) => {
      const { task_id, message_id } = await parseBody(c, stopBodySchema);
      if (message_id) {
        if (!chat.stop(message_id)) throw new AppError("ANSWER_FINISHED", `The assistant is not answering message ${message_id}.`);
        return c.json({ message_id, stopping: true }, 202);
      }
      const { task, stored } = await requireActive(task_id!);
      if (stored) await runtime.commands.stopStored(task);
      else await runtime.commands.stopWherever(task);
      return c.json({ task_id, stopping: true }, 202);
    })
    .post("/approve", async (c) => {
      const { task_id, approval_id, approved } = await parseBody(c, approveBodySchema);
      const { task, stored } = await requireActive(task_id);
      const noSuchApproval = new AppError("NO_SUCH_APPROVAL", `Task ${task_id} is not waiting for approval ${approval_id}.`);
      if (stored) {
        if (task.approval?.id !== approval_id) throw noSuchApproval;
        await runtime.resumeStored(task, await store.listSteps(task_id), { kind: "approval", approvalId: approval_id, approved });
      } else if (!(await runtime.commands.decide(task_id, approval_id, approved))) {
        throw noSuchApproval;
      }
      return c.json({ task_id, approval_id, approved }, 202);
    })
    .post("/takeover", async (c) => {
      const { task_id } = await parseBody(c, taskActionBodySchema);
      const { task } = await requireActive(task_id);
      if (!(await runtime.commands.takeOver(task_id))) throw new AppError("TASK_NOT_RUNNING", `Task ${task_id} is ${task.status}; only a running task can be taken over.`);
      return c.json({ task_id, takeover: true }, 202);
    })
    .post("/resume", async (c) => {
      const { task_id } = await parseBody(c, taskActionBodySchema);
      const { task } = await requireActive(task_id);
      if (!(await runtime.commands.handBack(task_id))) throw new AppError("TASK_NOT_TAKEN_OVER", `Task ${task_id} is ${task.status}, not taken over.`);
      return c.json({ task_id, resumed: true }, 202);
    })
    .post("/input", async (c) => {
      const { task_id, input } = await parseBody(c, inputBodySchema);
      const { task } = await requireActive(task_id);
      // The computer refusing the person's input (its page is being replaced, it has gone) is theirs to retry.
      const taken = await runtime.commands.personInput(task_id, input).catch((error: unknown) => {
        if (error instanceof AppError) return error;
        throw error;
      });
      if (taken instanceof AppError) return c.json({ error: { code: taken.code, message: taken.message } }, 409);
      if (!taken) {
        throw new AppError("TASK_NOT_TAKEN_OVER", `Task ${task_id} is ${task.status}: the screen is the agent's; take it over first.`);
      }
      return c.json({ task_id, done: true }, 202);
    })
    .post("/ack-user-action", async (c) => {
      const { task_id, text } = await parseBody(c, ackBodySchema);
      const { task, stored } = await requireActive(task_id);
      const resumed = stored ? task.approval === null : await runtime.commands.acknowledge(task_id, text);
      if (resumed && stored) await runtime.resumeStored(task, await store.listSteps(task_id), { kind: "ack", text: text ?? runtime.commands.ackText });
      if (!resumed) {
        throw new AppError("TASK_NOT_AWAITING_USER", `Task ${task_id} is ${task.status}, not waiting for the user.`);
      }
      return c.json({ task_id, resumed: true }, 202);
    });
}
