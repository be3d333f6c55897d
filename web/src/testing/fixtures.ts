// Builders of protocol records and events for the web tests, shaped exactly as the server
// sends them.
import type { ChatMessage, ProgressStep, SessionEvent, Task } from "../protocol.ts";

const AT = "2025-01-01T10:00:00.000Z";

export function task(patch: Partial<Task> = {}): Task {
  return {
    id: "task_1",
    session_id: "ses_1",
    text: "press the button",
    mode: "actions",
    computer: "browser",
    replay_of: null,
    cdp: null,
    extension_client_id: null,
    start_url: "http://127.0.0.1:9/form.html",
    status: "running",
    current_step_index: 0,
    live_frame: null,
    answer: null,
    approval: null,
    error: null,
    model: "scripted-vl",
    usage: { input_tokens: 0, output_tokens: 0 },
    cost_usd: 0,
    created_at: AT,
    updated_at: AT,
    finished_at: null,
    ...patch,
  };
}

export function step(index: number, patch: Partial<ProgressStep> = {}): ProgressStep {
  return {
    id: `step_${index}`,
    task_id: "task_1",
    index,
    text: `Step ${index} text`,
    thought: "",
    action: { type: "click", args: { x: 100 * index, y: 50, button: "left" }, intent: "", requires_verification: false },
    tool: null,
    screenshot: { id: `frame_${index}`, url: `/api/frames/frame_${index}`, width: 1000, height: 500 },
    cursor_x: 100 * index,
    cursor_y: 50,
    url: `http://127.0.0.1:9/page-${index}.html`,
    effect: null,
    verification: null,
    planner: "json",
    usage: { input_tokens: 10, output_tokens: 5 },
    cost_usd: null,
    carried_out: null,
    created_at: AT,
    ...patch,
  };
}

export const liveFrame = (version: number) => ({ id: "live_task_1", url: `/api/frames/live_task_1?v=${version}`, width: 1000, height: 500 });

type Body<E> = E extends SessionEvent ? Omit<E, "id" | "session_id" | "at" | "task_id"> : never;

/** Numbers events 1, 2, 3… as one session's stream does; task events belong to task_1. */
export function events(...bodies: Body<SessionEvent>[]): SessionEvent[] {
  return bodies.map(
    (body, index) => ({ ...body, id: index + 1, session_id: "ses_1", at: AT, ...(body.type.startsWith("chat.") ? {} : { task_id: "task_1" }) }) as SessionEvent,
  );
}

export function message(kind: ChatMessage["kind"], text: string, taskId: string | null = "task_1", id = `${kind}-${text}`): ChatMessage {
  return {
    id,
    session_id: "ses_1",
    task_id: taskId,
    role: kind === "user_text" ? "user" : "assistant",
    kind,
    text,
    attachments: [],
    created_at: AT,
  };
}
