// The SSE event protocol of seed 000 §3.2: everything the UI shows is driven by these events.
// `AgentEvent` is what the runtime emits; `SessionEvent` is what the stream delivers, with the
// per-session increasing `id` that `Last-Event-ID` refers to.
import { z } from "zod";
import { approvalSchema, chatMessageSchema, frameRefSchema, progressStepSchema, taskErrorSchema, taskFileSchema, taskSchema } from "./entities.ts";

const taskId = { task_id: z.string() };

/** A task's phase between steps, as `task.activity` names it. */
export const taskActivitySchema = z.enum(["thinking", "model_retry", "acting", "checking_pointer", "verifying", "waiting_for_page"]);
export type TaskActivity = z.infer<typeof taskActivitySchema>;

/** The assistant message a chat turn writes, and the person's message it answers. */
const turn = { message_id: z.string(), reply_to: z.string() };

export const agentEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("task.started"), ...taskId, task: taskSchema }),
  z.object({
    type: z.literal("screen.live"),
    ...taskId,
    frame: frameRefSchema,
    url: z.string().nullable(),
    /** On a desktop: the focused window, `title — application`. */
    window: z.string().nullable().default(null),
  }),
  z.object({ type: z.literal("progress.append"), ...taskId, step: progressStepSchema }),
  /**
   * What the task is doing between its steps, sent when it changes (and at most a few times a
   * second); a step, or the task's end, supersedes it. `since`: when this wait began — a model
   * call's retries keep the `since` of the call. `attempt`/`of`: the retry under way and how many
   * are allowed, for `model_retry`.
   */
  z.object({
    type: z.literal("task.activity"),
    ...taskId,
    activity: taskActivitySchema,
    attempt: z.number().int().positive().optional(),
    of: z.number().int().positive().optional(),
    since: z.string(),
  }),
  z.object({
    type: z.literal("task.awaiting_user"),
    ...taskId,
    answer: z.string(),
    show_ack_button: z.literal(true),
  }),
  z.object({ type: z.literal("approval.requested"), ...taskId, approval: approvalSchema }),
  z.object({ type: z.literal("approval.resolved"), ...taskId, approval_id: z.string(), approved: z.boolean() }),
  /** The person has the screen: the agent has stopped between its steps until they hand it back (task.resumed). */
  z.object({ type: z.literal("task.takeover"), ...taskId }),
  /** The person told the running task more (seed 001's follow-up messages); its agent reads it at its next step. */
  z.object({ type: z.literal("task.follow_up"), ...taskId, message: chatMessageSchema }),
  /** The agent read a follow-up: it went into the model's input for step `step`. */
  z.object({ type: z.literal("task.follow_up_read"), ...taskId, message_id: z.string(), step: z.number().int().positive() }),
  z.object({ type: z.literal("task.resumed"), ...taskId }),
  /** A task announced `queued` (MAX_CONCURRENT_TASKS were running when it came) got its place and runs. */
  z.object({ type: z.literal("task.running"), ...taskId }),
  /** A task the person answered after a restart waits for a place before it goes on (task.resumed). */
  z.object({ type: z.literal("task.queued"), ...taskId }),
  /** The task's tab in the person's Chrome changed (seed 004 snapshotSync): its address and title as the extension reports them. */
  z.object({ type: z.literal("snapshotSync"), ...taskId, tab: z.object({ id: z.number().int(), url: z.string(), title: z.string() }) }),
  /**
   * A file came to the task's computer. Kept: served at `/api/files/{file.id}`. Refused (`refused`
   * says why, e.g. larger than DOWNLOAD_MAX_BYTES): not kept, `file.size` is what had arrived.
   */
  z.object({ type: z.literal("task.file"), ...taskId, file: taskFileSchema, refused: z.string().nullable().default(null) }),
  z.object({ type: z.literal("task.completed"), ...taskId, answer: z.string() }),
  z.object({ type: z.literal("task.failed"), ...taskId, error: taskErrorSchema }),
  z.object({ type: z.literal("task.stopped"), ...taskId, reason: z.string() }),
  // The chat assistant (master agent): a turn starts, streams text, and ends with the stored
  // message (null when it had nothing to add) or an error.
  z.object({ type: z.literal("chat.started"), ...turn }),
  z.object({ type: z.literal("chat.delta"), ...turn, delta: z.string() }),
  z.object({
    type: z.literal("chat.completed"),
    ...turn,
    message: chatMessageSchema.nullable(),
    /** The assistant's last word on the message: no task and no further reply follow. */
    final: z.boolean().default(true),
  }),
  z.object({ type: z.literal("chat.failed"), ...turn, error: taskErrorSchema }),
]);
export type AgentEvent = z.infer<typeof agentEventSchema>;
export type AgentEventType = AgentEvent["type"];
export type AgentEventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;
/** The task an event belongs to; chat events belong to none. */
export function eventTaskId(event: AgentEvent): string | null {
  return "task_id" in event ? event.task_id : null;
}

export const eventMetaSchema = z.object({
  id: z.number().int().positive(),
  session_id: z.string(),
  at: z.string(),
});
export const sessionEventSchema = z.intersection(agentEventSchema, eventMetaSchema);
export type SessionEvent = AgentEvent & z.infer<typeof eventMetaSchema>;
