// Owns the sidebar's list of past sessions and which one is open (its id is in the path,
// /s/<id>, so a reload or a shared link opens the same chat), and the person's renames and
// deletions. The open chat's events refresh the list (ChatView); while another chat runs, the
// list is asked again every few seconds so its status changes show too.
import { useCallback, useEffect, useState } from "react";
import { api } from "../api.ts";
import { useCoalesced } from "./useCoalesced.ts";
import type { Session } from "../protocol.ts";

const POLL_MS = 4000;

function sessionFromPath(): string | null {
  const match = /^\/s\/([A-Za-z0-9_-]+)\/?$/.exec(window.location.pathname);
  return match?.[1] ?? null;
}

export interface Sessions {
  sessions: Session[];
  currentId: string | null;
  open: (id: string | null) => void;
  refresh: () => void;
  /** Rejects with the server's ApiError; the list is refreshed either way. */
  rename: (id: string, title: string) => Promise<void>;
  remove: (id: string) => Promise<void>;
}

export function useSessions(): Sessions {
  const [sessions, setSessions] = useState<Session[]>([]);
  const [currentId, setCurrentId] = useState<string | null>(sessionFromPath);

  const reload = useCoalesced(
    useCallback(async () => {
      setSessions(await api.listSessions());
    }, []),
  );
  const refresh = useCallback(() => {
    reload().catch(() => undefined);
  }, [reload]);

  useEffect(() => {
    refresh();
    const onPop = () => setCurrentId(sessionFromPath());
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, [refresh]);

  const running = sessions.some((session) => session.status === "running" && session.id !== currentId);
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(refresh, POLL_MS);
    return () => clearInterval(timer);
  }, [running, refresh]);

  const open = useCallback((id: string | null) => {
    const path = id ? `/s/${id}` : "/";
    if (window.location.pathname !== path) window.history.pushState(null, "", path);
    setCurrentId(id);
  }, []);

  const rename = useCallback(
    async (id: string, title: string) => {
      try {
        const renamed = await api.renameSession(id, title);
        setSessions((current) => current.map((session) => (session.id === id ? renamed : session)));
      } finally {
        refresh();
      }
    },
    [refresh],
  );

  const remove = useCallback(
    async (id: string) => {
      try {
        await api.deleteSession(id);
        setSessions((current) => current.filter((session) => session.id !== id));
        if (id === sessionFromPath()) open(null);
      } finally {
        refresh();
      }
    },
    [refresh, open],
  );

  return { sessions, currentId, open, refresh, rename, remove };
}
