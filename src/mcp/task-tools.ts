// Whole tasks for an MCP client: run_task (a task in a chat of its own, so the app shows it; it
// answers when the task ends or waits for the person, sending a progress notification per step),
// task_status, stop_task and answer_person (the "I've done it" or the decision a waiting task needs,
// asked of the person at the client first when it can show a form: person.ts).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Runtime } from "../agent/runtime.ts";
import { AppError } from "../core/errors.ts";
import { newId } from "../core/ids.ts";
import { AGENT_MODES, COMPUTERS, type Task } from "../protocol/index.ts";
import type { Store } from "../store/store.ts";
import type { ClientComputers } from "./computers.ts";
import { taskResult, untilSettled, waitsFor, watchGoingOn, type Progress } from "./follow.ts";
import { answer, type AskPerson } from "./person.ts";
import { answering, json } from "./results.ts";

export interface TaskToolsDeps {
  store: Store;
  runtime: Runtime;
  computers: ClientComputers;
  ask: AskPerson;
}

const taskId = z.string().min(1).max(100).describe("The task's id, as run_task or open_computer answered it.");

/** What the SDK hands a tool's handler besides its arguments: the call's id, signal and progress token. */
type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Progress notifications for the call, when its client asked for them with a progress token. */
function progressOf(extra: Extra, total: number | undefined): Progress | null {
  const token = extra._meta?.progressToken;
  if (token === undefined) return null;
  return (progress, message) => extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress, ...(total ? { total } : {}), message } });
}

export function registerTaskTools(server: McpServer, { store, runtime, computers, ask }: TaskToolsDeps): void {
  const result = async (id: string) => {
    const found = await taskResult(store, id);
    if (!found) throw new AppError("NOT_FOUND", `There is no task ${id}.`);
    return json(found);
  };

  /**
   * Follows the task until it ends, or waits for the person and they cannot be asked at the client
   * (askAtClient) or gave no answer there; a decision made in the app meanwhile is followed too.
   */
  const follow = async (task: Task, extra: Extra, progress: Progress | null): Promise<void> => {
    for (;;) {
      await untilSettled(store, task, progress, extra.signal);
      const now = await store.getTask(task.id);
      const waits = now && waitsFor(now);
      if (!waits || extra.signal.aborted || !runtime.commands.holds(now)) return;
      const { goneOn, stop } = await watchGoingOn(store, task);
      const wentOn = new AbortController();
      void goneOn.then(() => wentOn.abort());
      try {
        const reply = await ask(waits, { relatedRequestId: extra.requestId, signal: AbortSignal.any([extra.signal, wentOn.signal]) });
        const answered = reply !== null && (await answer(runtime, task.id, waits, reply));
        if (!answered && !wentOn.signal.aborted) return;
        await Promise.race([goneOn, new Promise((resolve) => extra.signal.addEventListener("abort", resolve, { once: true }))]);
      } finally {
        stop();
      }
    }
  };

  server.registerTool(
    "run_task",
    {
      description:
        "Run a computer task to its end: the agent drives a real browser (or the configured computer) and answers with its status, answer, steps and the files it received. If the task waits for the person (to act, or to approve an action), the result says so: answer with answer_person, then call task_status with wait true.",
      inputSchema: {
        text: z.string().trim().min(1).max(20_000).describe("What the agent should do, as a person would say it."),
        start_url: z.string().url().refine((u) => /^https?:/.test(u), "must be an http(s) URL").optional().describe("Open this page before the first step."),
        computer: z.enum(COMPUTERS).optional().describe("What the task drives; the server's COMPUTER by default."),
        agent_mode: z.enum(AGENT_MODES).optional().describe("actions (a planner's screen actions), dom or hybrid (the tool agent); the server's AGENT_MODE by default."),
        max_steps: z.number().int().min(1).max(1000).optional().describe("The task's step cap, when lower than the server's."),
      },
    },
    (input, extra) =>
      answering(async () => {
        const sessionId = newId("mcp");
        await store.ensureSession(sessionId, input.text);
        const { task } = await runtime.submit({ sessionId, text: input.text, attachments: [], startUrl: input.start_url, computer: input.computer, agentMode: input.agent_mode, maxSteps: input.max_steps });
        await follow(task, extra, progressOf(extra, input.max_steps));
        // A client that gave up on the call gave up on the task.
        if (extra.signal.aborted) void runtime.commands.stop(task.id, "the MCP client cancelled the call");
        return result(task.id);
      }),
  );

  server.registerTool(
    "task_status",
    {
      description: "A task's status, answer or error, what it waits for, its steps and files. With wait true, answers once it has ended or waits for the person, sending progress per step.",
      inputSchema: { task_id: taskId, wait: z.boolean().optional() },
    },
    ({ task_id, wait }, extra) =>
      answering(async () => {
        const task = await store.getTask(task_id);
        if (!task) throw new AppError("NOT_FOUND", `There is no task ${task_id}.`);
        if (wait) await follow(task, extra, progressOf(extra, undefined));
        return result(task_id);
      }),
  );

  server.registerTool(
    "stop_task",
    { description: "Stop a running task (or close a computer opened with open_computer at once); answers with the task as it ended.", inputSchema: { task_id: taskId } },
    ({ task_id }, extra) =>
      answering(async () => {
        const task = await store.getTask(task_id);
        if (!task) throw new AppError("NOT_FOUND", `There is no task ${task_id}.`);
        if (!(await runtime.commands.stopWherever(task, "stopped by the MCP client"))) throw new AppError("TASK_FINISHED", `Task ${task_id} is not running (${task.status}).`);
        await untilSettled(store, task, null, extra.signal);
        return result(task_id);
      }),
  );

  server.registerTool(
    "answer_person",
    {
      description:
        "Answer a task that waits for the person: approval_id with approved true or false decides an action it asked about; otherwise the answer says the person has done what it asked (text: what they said). For a computer opened with open_computer, answers with the result of the call that waited.",
      inputSchema: {
        task_id: taskId,
        approval_id: z.string().min(1).optional(),
        approved: z.boolean().optional(),
        text: z.string().trim().min(1).max(2_000).optional().describe("The person's words, when they did what the task asked."),
      },
    },
    ({ task_id, approval_id, approved, text }, extra) =>
      answering(async () => {
        const task = await store.getTask(task_id);
        if (!task || !runtime.commands.holds(task)) throw new AppError("TASK_NOT_RUNNING", `Task ${task_id} is not running in this server; answer it in the app.`);
        if (approval_id !== undefined && approved === undefined) throw new AppError("INVALID_BODY", "approved: say true or false for the approval.");
        const { goneOn, stop } = await watchGoingOn(store, task);
        try {
          if (approval_id !== undefined) {
            if (!(await runtime.commands.decide(task_id, approval_id, approved!))) throw new AppError("NO_SUCH_APPROVAL", `Task ${task_id} is not waiting for approval ${approval_id}.`);
            const call = await computers.decided(task_id, approval_id, { relatedRequestId: extra.requestId, signal: extra.signal });
            if (call) return call;
          } else if (!(await runtime.commands.acknowledge(task_id, text))) {
            throw new AppError("TASK_NOT_AWAITING_USER", `Task ${task_id} is not waiting for the person; call task_status to see what it does.`);
          }
          await Promise.race([goneOn, new Promise((resolve) => extra.signal.addEventListener("abort", resolve, { once: true }))]);
          return json({ task_id, answered: true, next: "Call task_status with wait true to follow the task to its end." });
        } finally {
          stop();
        }
      }),
  );
}
