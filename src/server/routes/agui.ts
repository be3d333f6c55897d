// POST /api/agui: the agent over AG-UI. The run input's thread is our session and its last message
// the person's question or task with its images and documents (server/agui/message.ts), sent as
// /api/chat/send sends it (`forwardedProps` carries that
// body's options: mode, agent_mode, computer, start_url…; a task waiting for the person since a
// restart takes it as their answer); or, with `resume`, the answers to the
// interrupts the run before ended with. The reply streams the run as AG-UI events over SSE
// (server/agui/translate.ts) until it comes to rest. Closing the stream leaves the task running:
// Stop is the API's (/api/chat/stop) or the UI's.
import { EventType, type BaseEvent, type RunAgentInput } from "@ag-ui/core";
import { RunAgentInputSchema } from "@ag-ui/core/schemas";
import { EventEncoder } from "@ag-ui/encoder";
import { Hono } from "hono";
import { stream } from "hono/streaming";
import type { ChatAgent } from "../../agent/chat-agent.ts";
import type { Runtime } from "../../agent/runtime.ts";
import { AppError } from "../../core/errors.ts";
import { idSchema, sendBodySchema, type Task } from "../../protocol/index.ts";
import type { Store } from "../../store/store.ts";
import { answerInterrupts } from "../agui/answers.ts";
import { lastPersonMessage } from "../agui/message.ts";
import { AguiRun, type RunScope } from "../agui/translate.ts";
import { answerWaitingSinceRestart, submissionOf } from "../chat-send.ts";
import { parseBody, parseWith } from "../http-error.ts";
import { SessionQueue } from "../session-queue.ts";

const HEARTBEAT_MS = 15_000;
/** The send body's options, as a run's `forwardedProps`; the thread and the message give the rest. */
const optionsSchema = sendBodySchema.omit({ session_id: true, text: true, attachments: true });

export function aguiRoutes(store: Store, runtime: Runtime, chat: ChatAgent) {
  /** Sends the person's message; the run follows the turn or task it went to. */
  const send = async (sessionId: string, input: RunAgentInput): Promise<RunScope> => {
    const options = parseWith(optionsSchema, input.forwardedProps ?? {}, "forwardedProps");
    const body = parseWith(sendBodySchema, { ...options, session_id: sessionId, ...lastPersonMessage(input) }, "body");
    const answered = await answerWaitingSinceRestart(store, runtime, { sessionId, text: body.text, attachments: body.attachments }, "answer its interrupt (resume with approved true or false)");
    if (answered) return scopeOf(sessionId, [answered.id]);
    const reply = await chat.send(submissionOf(body));
    return scopeOf(sessionId, reply.task_id ? [reply.task_id] : []);
  };

  /** The turn under way in the session, if any, and the tasks, as they stand now. */
  const scopeOf = async (sessionId: string, taskIds: string[]): Promise<RunScope> => {
    const tasks = (await Promise.all(taskIds.map((id) => store.getTask(id)))).filter((t): t is Task => t !== null);
    return { turn: chat.answering(sessionId), tasks };
  };

  return new Hono().post("/", async (c) => {
    const input = await parseBody(c, RunAgentInputSchema);
    const sessionId = parseWith(idSchema, input.threadId, "threadId");
    // Subscribed before the message goes, so the run misses nothing of what it starts.
    const events = await SessionQueue.open(store, sessionId, await store.events.lastId(sessionId));
    let run: AguiRun;
    try {
      const scope = input.resume?.length
        ? await scopeOf(sessionId, (await answerInterrupts(store, runtime, sessionId, input.resume)).map((t) => t.id))
        : await send(sessionId, input);
      run = new AguiRun(sessionId, input.runId, scope);
    } catch (error) {
      events.close();
      throw error;
    }
    const encoder = new EventEncoder();
    c.header("content-type", encoder.getContentType());
    c.header("cache-control", "no-cache");
    c.header("x-accel-buffering", "no");
    return stream(c, async (out) => {
      const write = async (events: BaseEvent[]) => {
        for (const event of events) await out.write(encoder.encodeSSE(event));
      };
      out.onAbort(() => events.wake());
      try {
        await write(run.start());
        while (!out.aborted && !run.ended) {
          const event = await events.next(HEARTBEAT_MS);
          if (event) await write(run.take(event));
          else if (!out.aborted) await out.write(": ping\n\n");
        }
      } catch (error) {
        // The stream is open: a failure can only be told as the run's error.
        if (!out.aborted) await write([{ type: EventType.RUN_ERROR, code: "INTERNAL", message: error instanceof AppError ? error.message : "The run's events could not be sent." }]);
      } finally {
        events.close();
      }
    });
  });
}
