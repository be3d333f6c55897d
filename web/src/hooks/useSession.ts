// Owns one session's state: its stored messages and tasks, and its event stream, which it
// reduces into run state and resumes after the last event it saw whenever the connection drops.
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react";
import { api, streamUrl } from "../api.ts";
import { agentEventSchema, sessionEventSchema, type ChatMessage, type SessionEvent, type Task } from "../protocol.ts";
import { chatItems, type ChatItem } from "../state/chat-items.ts";
import { emptyEventState, isAnswering, reduceEvent, selectRuns, type RunState } from "../state/session-state.ts";
import { useCoalesced } from "./useCoalesced.ts";

export type Connection = "connecting" | "open" | "lost";

const EVENT_TYPES = agentEventSchema.options.map((option) => option.shape.type.value);
/** Events after which the stored messages or the session list have changed. */
const REFRESHING: ReadonlySet<string> = new Set([
  "task.started",
  "task.awaiting_user",
  "approval.requested",
  "task.takeover",
  "task.follow_up",
  "task.resumed",
  "task.running",
  "task.queued",
  "task.completed",
  "task.failed",
  "task.stopped",
  "chat.started",
  "chat.completed",
  "chat.failed",
]);
const RETRY_MS = [500, 1000, 2000, 4000];

export interface SessionView {
  loaded: boolean;
  items: ChatItem[];
  runs: Record<string, RunState>;
  /** The assistant is writing a reply. */
  answering: boolean;
  connection: Connection;
  /** Re-reads the stored messages and tasks. */
  refresh: () => Promise<void>;
}

export function useSession(sessionId: string | null, onSessionChanged: () => void): SessionView {
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [tasks, setTasks] = useState<Task[]>([]);
  const [loaded, setLoaded] = useState(sessionId === null);
  const [events, dispatch] = useReducer(reduceEvent, emptyEventState);
  const [connection, setConnection] = useState<Connection>("connecting");
  const lastEventId = useRef(0);
  const onChanged = useRef(onSessionChanged);
  onChanged.current = onSessionChanged;

  const refresh = useCoalesced(
    useCallback(async () => {
      if (!sessionId) return;
      const [nextMessages, nextTasks] = await Promise.all([api.listMessages(sessionId), api.listTasks(sessionId)]);
      setMessages(nextMessages);
      setTasks(nextTasks);
      setLoaded(true);
    }, [sessionId]),
  );

  useEffect(() => {
    void refresh().catch(() => setLoaded(true));
  }, [refresh]);

  useEffect(() => {
    if (!sessionId) return;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let attempts = 0;
    let closed = false;

    const onEvent = (message: MessageEvent<string>) => {
      const event = parseEvent(message.data);
      if (!event) return;
      lastEventId.current = Math.max(lastEventId.current, event.id);
      dispatch(event);
      if (REFRESHING.has(event.type)) {
        void refresh().catch(() => undefined);
        onChanged.current();
      }
    };
    const connect = () => {
      // The browser resumes a dropped stream itself, sending Last-Event-ID; a stream it gave up
      // on is reopened here with the same position in the query.
      source = new EventSource(streamUrl(sessionId, lastEventId.current));
      for (const type of EVENT_TYPES) source.addEventListener(type, onEvent);
      source.onopen = () => {
        attempts = 0;
        setConnection("open");
      };
      source.onerror = () => {
        setConnection("lost");
        if (source?.readyState !== EventSource.CLOSED || closed) return;
        retry = setTimeout(connect, RETRY_MS[Math.min(attempts++, RETRY_MS.length - 1)]);
      };
    };
    connect();
    return () => {
      closed = true;
      clearTimeout(retry);
      source?.close();
    };
  }, [sessionId, refresh]);

  const runs = useMemo(() => selectRuns(events, tasks), [events, tasks]);
  const items = useMemo(() => chatItems(messages, runs, events.replies, events.followUps), [messages, runs, events.replies, events.followUps]);
  return { loaded, items, runs, answering: isAnswering(events), connection, refresh };
}

function parseEvent(data: string): SessionEvent | null {
  try {
    const parsed = sessionEventSchema.safeParse(JSON.parse(data));
    return parsed.success ? (parsed.data as SessionEvent) : null;
  } catch {
    return null;
  }
}
