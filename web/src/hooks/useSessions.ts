// Owns the sidebar's list of past sessions and which one is open (its id is in the path,
// /s/<id>, so a reload or a shared link opens the same chat).
import { useCallback, useEffect, useState } from "react";
import { api } from "../api.ts";
import { useCoalesced } from "./useCoalesced.ts";
import type { Session } from "../protocol.ts";

function sessionFromPath(): string | null {
  const match = /^\/s\/([A-Za-z0-9_-]+)\/?$/.exec(window.location.pathname);
  return match?.[1] ?? null;
}

export interface Sessions {
  sessions: Session[];
  currentId: string | null;
  open: (id: string | null) => void;
  refresh: () => void;
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

  const open = useCallback((id: string | null) => {
    const path = id ? `/s/${id}` : "/";
    if (window.location.pathname !== path) window.history.pushState(null, "", path);
    setCurrentId(id);
  }, []);

  return { sessions, currentId, open, refresh };
}
