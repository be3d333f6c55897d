// The sessions sidebar: "New chat" and the past chats, most recently active first, the open one
// marked. Each chat shows its title, where its latest task stands ("Needs you" stands out) and
// when it last moved, and can be renamed in place or deleted after a confirmation.
import { useEffect, useId, useRef, useState, type KeyboardEvent, type Ref } from "react";
import { ApiError } from "../api.ts";
import { relativeTime, t } from "../i18n.ts";
import type { Session, SessionStatus } from "../protocol.ts";

export interface SidebarProps {
  sessions: readonly Session[];
  currentId: string | null;
  onOpen: (id: string | null) => void;
  onRename: (id: string, title: string) => Promise<void>;
  onDelete: (id: string) => Promise<void>;
}

const focusRing = "focus-visible:outline-2 focus-visible:outline-indigo-500";

export function Sidebar({ sessions, currentId, onOpen, onRename, onDelete }: SidebarProps) {
  const newChat = useRef<HTMLButtonElement>(null);
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);

  return (
    <nav aria-label={t.chats} className="flex h-full flex-col bg-zinc-100/80">
      <div className="flex items-center gap-2 px-4 pt-4 pb-3">
        <span aria-hidden="true" className="size-6 rounded-md bg-indigo-600" />
        <span className="font-semibold tracking-tight">{t.appName}</span>
      </div>
      <div className="px-3 pb-3">
        <button
          ref={newChat}
          type="button"
          onClick={() => onOpen(null)}
          className={`flex w-full items-center gap-2 rounded-lg border border-zinc-300 bg-white px-3 py-2 max-sm:min-h-11 text-sm font-medium text-zinc-800 shadow-sm hover:bg-zinc-50 ${focusRing}`}
        >
          <span aria-hidden="true" className="text-lg leading-none">+</span>
          {t.newChat}
        </button>
      </div>
      <h2 className="px-4 pb-1 text-xs font-semibold tracking-wide text-zinc-600 uppercase">{t.chats}</h2>
      <ul className="min-h-0 flex-1 space-y-0.5 overflow-y-auto px-2 pb-4">
        {sessions.length === 0 && <li className="px-2 py-2 text-sm text-zinc-600">{t.noChats}</li>}
        {sessions.map((session) => (
          <SessionRow
            key={session.id}
            session={session}
            current={session.id === currentId}
            now={now}
            onOpen={() => onOpen(session.id)}
            onRename={(title) => onRename(session.id, title)}
            onDelete={async () => {
              await onDelete(session.id);
              newChat.current?.focus();
            }}
          />
        ))}
      </ul>
    </nav>
  );
}

type RowMode = "view" | "renaming" | "confirming";

interface SessionRowProps {
  session: Session;
  current: boolean;
  now: number;
  onOpen: () => void;
  onRename: (title: string) => Promise<void>;
  onDelete: () => Promise<void>;
}

function SessionRow({ session, current, now, onOpen, onRename, onDelete }: SessionRowProps) {
  const [mode, setMode] = useState<RowMode>("view");
  const [error, setError] = useState<string | null>(null);
  const link = useRef<HTMLAnchorElement>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  const metaId = useId();

  const finish = (focus: "link" | "rename") => {
    setMode("view");
    // The focus goes back where the person was once the row shows its link again.
    requestAnimationFrame(() => (focus === "link" ? link.current : renameButton.current)?.focus());
  };
  const fail = (failure: unknown, busyText = t.chatChangeFailed) =>
    setError(failure instanceof ApiError && failure.code === "SESSION_BUSY" ? busyText : failure instanceof ApiError && failure.status === 400 ? failure.message : t.chatChangeFailed);

  const save = async (title: string) => {
    const trimmed = title.trim();
    finish("link");
    if (!trimmed || trimmed === session.title) return;
    setError(null);
    await onRename(trimmed).catch((failure: unknown) => fail(failure));
  };

  return (
    <li
      data-testid="session-row"
      data-status={session.status ?? "none"}
      className={`group relative rounded-lg px-3 py-2 ${current ? "bg-white shadow-sm" : "hover:bg-zinc-200/70"}`}
    >
      {mode === "renaming" ? (
        <RenameField title={session.title} onSave={save} onCancel={() => finish("rename")} />
      ) : (
        <a
          ref={link}
          href={`/s/${session.id}`}
          onClick={(event) => {
            event.preventDefault();
            onOpen();
          }}
          aria-current={current ? "page" : undefined}
          aria-describedby={metaId}
          title={session.title}
          className={`block truncate text-sm group-focus-within:pr-14 group-hover:pr-14 after:absolute [@media(hover:none)]:pr-14 max-sm:pr-20 after:inset-0 after:rounded-lg ${current ? "font-medium text-zinc-900" : "text-zinc-700"} ${focusRing}`}
        >
          {session.title}
        </a>
      )}
      <div id={metaId} className="mt-1 flex items-center gap-2 text-xs text-zinc-600">
        {session.status && <StatusBadge status={session.status} />}
        <time dateTime={session.last_activity_at} title={new Date(session.last_activity_at).toLocaleString()}>
          {relativeTime(session.last_activity_at, now)}
        </time>
      </div>
      {mode === "view" && (
        <div className="absolute top-1 right-1 z-10 flex opacity-0 group-focus-within:opacity-100 group-hover:opacity-100 [@media(hover:none)]:opacity-100">
          <IconButton ref={renameButton} label={t.renameChat(session.title)} onClick={() => setMode("renaming")} icon="M4 14.5V16h1.5l8.1-8.1-1.5-1.5L4 14.5Zm11.7-8.2a1 1 0 0 0 0-1.4l-.6-.6a1 1 0 0 0-1.4 0l-.9.9 2 2 .9-.9Z" />
          <IconButton label={t.deleteChat(session.title)} onClick={() => setMode("confirming")} icon="M7 4V3h6v1h4v2H3V4h4Zm-2 3h10l-.8 10H5.8L5 7Zm3 2v6h1.5V9H8Zm2.5 0v6H12V9h-1.5Z" />
        </div>
      )}
      {mode === "confirming" && (
        <ConfirmDelete
          onCancel={() => finish("link")}
          onConfirm={async () => {
            setError(null);
            setMode("view");
            await onDelete().catch((failure: unknown) => fail(failure, t.deleteBusy));
          }}
        />
      )}
      {error && (
        <p role="alert" className="relative z-10 mt-1 text-xs text-red-700">
          {error}
        </p>
      )}
    </li>
  );
}

function StatusBadge({ status }: { status: SessionStatus }) {
  const look: Record<SessionStatus, string> = {
    waiting: "bg-zinc-100 text-zinc-700",
    running: "bg-indigo-100 text-indigo-800",
    needs_you: "bg-amber-400 font-semibold text-amber-950 ring-1 ring-amber-500",
    with_you: "bg-sky-100 text-sky-900",
    done: "bg-emerald-100 text-emerald-800",
    failed: "bg-red-100 text-red-800",
    stopped: "bg-zinc-200 text-zinc-700",
  };
  return (
    <span data-testid="session-status" data-status={status} className={`inline-flex items-center gap-1 rounded-full px-1.5 py-px ${look[status]}`}>
      {(status === "running" || status === "needs_you") && (
        <span aria-hidden="true" className={`size-1.5 rounded-full ${status === "running" ? "animate-pulse bg-indigo-600" : "bg-amber-950"}`} />
      )}
      {t.sessionStatus[status]}
    </span>
  );
}

/** Enter saves, Escape cancels (and does not close the drawer around it); leaving the field saves. */
function RenameField({ title, onSave, onCancel }: { title: string; onSave: (title: string) => Promise<void>; onCancel: () => void }) {
  const [value, setValue] = useState(title);
  const settled = useRef(false);
  const settle = (action: () => void) => {
    if (settled.current) return;
    settled.current = true;
    action();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter") {
      event.preventDefault();
      settle(() => void onSave(value));
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      settle(onCancel);
    }
  };
  return (
    <input
      aria-label={t.chatTitle}
      value={value}
      maxLength={120}
      autoFocus
      onFocus={(event) => event.currentTarget.select()}
      onChange={(event) => setValue(event.target.value)}
      onKeyDown={onKeyDown}
      onBlur={() => settle(() => void onSave(value))}
      className="relative z-10 w-full rounded border border-indigo-400 max-sm:min-h-11 bg-white px-1.5 py-0.5 text-sm text-zinc-900 outline-none focus:ring-2 focus:ring-indigo-300"
    />
  );
}

function ConfirmDelete({ onConfirm, onCancel }: { onConfirm: () => Promise<void>; onCancel: () => void }) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div
      role="group"
      aria-label={t.confirmDelete}
      onKeyDown={(event) => {
        if (event.key !== "Escape") return;
        event.preventDefault();
        event.stopPropagation();
        onCancel();
      }}
      className="relative z-10 mt-2 rounded-md border border-red-200 bg-red-50 p-2 text-xs text-red-900"
    >
      <p>{t.confirmDelete}</p>
      <div className="mt-2 flex gap-2">
        <button type="button" onClick={() => void onConfirm()} className={`rounded bg-red-600 px-2 py-1 max-sm:min-h-11 max-sm:min-w-11 font-medium text-white hover:bg-red-700 ${focusRing}`}>
          {t.delete}
        </button>
        <button ref={cancel} type="button" onClick={onCancel} className={`rounded border border-zinc-300 bg-white px-2 py-1 max-sm:min-h-11 max-sm:min-w-11 text-zinc-800 hover:bg-zinc-50 ${focusRing}`}>
          {t.cancel}
        </button>
      </div>
    </div>
  );
}

function IconButton({ label, icon, onClick, ref }: { label: string; icon: string; onClick: () => void; ref?: Ref<HTMLButtonElement> }) {
  return (
    <button
      ref={ref}
      type="button"
      aria-label={label}
      title={label}
      onClick={onClick}
      className={`flex size-7 max-sm:size-11 items-center justify-center rounded-md text-zinc-500 hover:bg-zinc-300/70 hover:text-zinc-900 ${focusRing}`}
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
        <path d={icon} />
      </svg>
    </button>
  );
}
