// The sessions sidebar: "New chat" and the past chats, newest first, the open one marked.
import type { Session } from "../protocol.ts";
import { t } from "../i18n.ts";

export interface SidebarProps {
  sessions: readonly Session[];
  currentId: string | null;
  onOpen: (id: string | null) => void;
}

export function Sidebar({ sessions, currentId, onOpen }: SidebarProps) {
  return (
    <nav aria-label={t.chats} className="flex h-full flex-col bg-zinc-100/80">
      <div className="flex items-center gap-2 px-4 pt-4 pb-3">
        <span aria-hidden="true" className="size-6 rounded-md bg-indigo-600" />
        <span className="font-semibold tracking-tight">{t.appName}</span>
      </div>
      <div className="px-3 pb-3">
        <button
          type="button"
          onClick={() => onOpen(null)}
          className="flex w-full items-center gap-2 rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm font-medium text-zinc-800 shadow-sm hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-indigo-500"
        >
          <span aria-hidden="true" className="text-lg leading-none">+</span>
          {t.newChat}
        </button>
      </div>
      <h2 className="px-4 pb-1 text-xs font-semibold tracking-wide text-zinc-600 uppercase">{t.chats}</h2>
      <ul className="min-h-0 flex-1 overflow-y-auto px-2 pb-4">
        {sessions.length === 0 && <li className="px-2 py-2 text-sm text-zinc-600">{t.noChats}</li>}
        {sessions.map((session) => {
          const current = session.id === currentId;
          return (
            <li key={session.id}>
              <a
                href={`/s/${session.id}`}
                onClick={(event) => {
                  event.preventDefault();
                  onOpen(session.id);
                }}
                aria-current={current ? "page" : undefined}
                title={session.title}
                className={`block truncate rounded-lg px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 ${
                  current ? "bg-white font-medium text-zinc-900 shadow-sm" : "text-zinc-700 hover:bg-zinc-200/70"
                }`}
              >
                {session.title}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
