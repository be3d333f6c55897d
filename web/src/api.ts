// The REST client: one typed function per API route, and ApiError carrying the server's code.
import type {
  ChatMessage,
  ErrorReply,
  ExtensionListing,
  ExtensionListReply,
  HealthReply,
  MessagesReply,
  ModelSettingsBody,
  ModelSettingsReply,
  ModelStatusReply,
  PersonInputBody,
  SendBody,
  SendReply,
  Session,
  SessionsReply,
  Task,
  TasksReply,
} from "./protocol.ts";
import { INSTALL_TOKEN_HEADER, INSTALL_TOKEN_META } from "./protocol.ts";

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** The per-install token the server put in the page; every request that changes state carries it, and the extension pairs with it. */
export const installToken = document.querySelector<HTMLMetaElement>(`meta[name="${INSTALL_TOKEN_META}"]`)?.content ?? "";

async function request<T>(method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE", path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: {
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(method === "GET" ? {} : { [INSTALL_TOKEN_HEADER]: installToken }),
      },
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch {
    throw new ApiError("NETWORK", "The server cannot be reached.", 0);
  }
  const data: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (data as ErrorReply | null)?.error;
    throw new ApiError(error?.code ?? "HTTP_ERROR", error?.message ?? `${method} ${path} failed (${response.status}).`, response.status);
  }
  return data as T;
}

export const api = {
  health: (): Promise<HealthReply> => request<HealthReply>("GET", "/api/health"),
  modelStatus: (): Promise<ModelStatusReply> => request<ModelStatusReply>("GET", "/api/model-status"),
  /** The model in use; of its key only whether one is set. */
  modelSettings: (): Promise<ModelSettingsReply> => request<ModelSettingsReply>("GET", "/api/settings/model"),
  /** Whether a model with these settings could be asked; nothing is saved. */
  testModelSettings: (body: ModelSettingsBody): Promise<ModelStatusReply> => request<ModelStatusReply>("POST", "/api/settings/model/test", body),
  /** Saves them on the server; the next task and answer use them. */
  saveModelSettings: (body: ModelSettingsBody): Promise<ModelSettingsReply> => request<ModelSettingsReply>("PUT", "/api/settings/model", body),
  extensions: async (): Promise<ExtensionListing[]> => (await request<ExtensionListReply>("GET", "/api/extension/extension-list")).extensions,
  listSessions: async (): Promise<Session[]> => (await request<SessionsReply>("GET", "/api/sessions")).sessions,
  createSession: (): Promise<Session> => request<Session>("POST", "/api/sessions", {}),
  renameSession: (sessionId: string, title: string): Promise<Session> => request<Session>("PATCH", `/api/sessions/${encodeURIComponent(sessionId)}`, { title }),
  /** Refused with SESSION_BUSY while a task of the chat is under way. */
  deleteSession: (sessionId: string): Promise<unknown> => request("DELETE", `/api/sessions/${encodeURIComponent(sessionId)}`),
  listMessages: async (sessionId: string): Promise<ChatMessage[]> =>
    (await request<MessagesReply>("GET", `/api/sessions/${encodeURIComponent(sessionId)}/messages`)).messages,
  listTasks: async (sessionId: string): Promise<Task[]> =>
    (await request<TasksReply>("GET", `/api/sessions/${encodeURIComponent(sessionId)}/tasks`)).tasks,
  send: (body: SendBody): Promise<SendReply> => request<SendReply>("POST", "/api/chat/send", body),
  stop: (taskId: string): Promise<unknown> => request("POST", "/api/chat/stop", { task_id: taskId }),
  /** Stops the assistant's answer to the person's message `messageId`. */
  stopAnswer: (messageId: string): Promise<unknown> => request("POST", "/api/chat/stop", { message_id: messageId }),
  ack: (taskId: string, text: string): Promise<unknown> => request("POST", "/api/chat/ack-user-action", { task_id: taskId, text }),
  takeOver: (taskId: string): Promise<unknown> => request("POST", "/api/chat/takeover", { task_id: taskId }),
  resume: (taskId: string): Promise<unknown> => request("POST", "/api/chat/resume", { task_id: taskId }),
  /** The person's click, wheel, key or text on the live view while the screen is theirs. */
  input: (taskId: string, input: PersonInputBody): Promise<unknown> => request("POST", "/api/chat/input", { task_id: taskId, input }),
  runAgain: (taskId: string): Promise<SendReply> => request<SendReply>("POST", "/api/chat/replay", { task_id: taskId }),
  /** Runs an ended task's text again, as a new task in its chat. */
  retry: (taskId: string): Promise<SendReply> => request<SendReply>("POST", "/api/chat/retry", { task_id: taskId }),
  /** Goes on from where a failed or stopped task ended, as a new task; `extraSteps` by default as many as it had. */
  continueTask: (taskId: string, extraSteps?: number): Promise<SendReply> =>
    request<SendReply>("POST", "/api/chat/continue", { task_id: taskId, ...(extraSteps === undefined ? {} : { extra_steps: extraSteps }) }),
  decide: (taskId: string, approvalId: string, approved: boolean): Promise<unknown> =>
    request("POST", "/api/chat/approve", { task_id: taskId, approval_id: approvalId, approved }),
};

/** The stream URL for a session, resuming after `lastEventId` (0 replays everything). */
export function streamUrl(sessionId: string, lastEventId: number): string {
  return `/api/chat/stream?session_id=${encodeURIComponent(sessionId)}&last_event_id=${lastEventId}`;
}
