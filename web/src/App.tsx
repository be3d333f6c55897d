// The app shell: the sessions sidebar (a drawer on phones) beside the open chat.
import { useEffect, useState } from "react";
import { ChatView } from "./components/ChatView.tsx";
import { Drawer } from "./components/Drawer.tsx";
import { ModelBanner } from "./components/ModelBanner.tsx";
import { ModelSettingsButton } from "./components/ModelSetup.tsx";
import { Sidebar } from "./components/Sidebar.tsx";
import { useSessions } from "./hooks/useSessions.ts";
import { t } from "./i18n.ts";
import { formatUsd } from "./protocol.ts";

export function App() {
  const { sessions, currentId, open, refresh, rename, remove } = useSessions();
  const [drawerOpen, setDrawerOpen] = useState(false);
  // While a task's screen has the stage, the sessions list steps aside into the drawer on a wide window.
  const [staged, setStaged] = useState(false);
  const current = sessions.find((session) => session.id === currentId);
  const title = current?.title ?? t.newChat;

  useEffect(() => {
    document.title = `${title} · ${t.appName}`;
  }, [title]);

  const openSession = (id: string | null) => {
    setDrawerOpen(false);
    open(id);
  };

  return (
    <div className="flex h-full">
      <aside className={`hidden w-64 shrink-0 border-r border-zinc-200 md:block ${staged ? "lg:hidden" : ""}`}>
        <Sidebar sessions={sessions} currentId={currentId} onOpen={openSession} onRename={rename} onDelete={remove} />
      </aside>
      <Drawer open={drawerOpen} onClose={() => setDrawerOpen(false)} label={t.chats}>
        <Sidebar sessions={sessions} currentId={currentId} onOpen={openSession} onRename={rename} onDelete={remove} />
      </Drawer>
      <main className="flex min-w-0 flex-1 flex-col bg-white">
        <header className="flex h-12 shrink-0 items-center gap-2 border-b border-zinc-200 px-3 sm:px-4">
          <button
            type="button"
            onClick={() => setDrawerOpen(true)}
            aria-label={t.openMenu}
            aria-expanded={drawerOpen}
            className={`flex size-9 max-sm:size-11 items-center justify-center rounded-lg text-zinc-600 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-indigo-500 md:hidden ${staged ? "lg:flex" : ""}`}
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5">
              <path d="M3 5h14M3 10h14M3 15h14" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
            </svg>
          </button>
          <h1 className="min-w-0 flex-1 truncate text-sm font-medium text-zinc-800">{title}</h1>
          {current?.cost_usd ? (
            <span data-testid="chat-cost" title={t.chatCost} className="shrink-0 text-sm text-zinc-500 tabular-nums">
              <span className="sr-only">{t.chatCost}: </span>
              {formatUsd(current.cost_usd)}
            </span>
          ) : null}
          <ModelSettingsButton />
        </header>
        <ModelBanner />
        <ChatView key={currentId ?? "new"} sessionId={currentId} onCreated={openSession} onSessionsChanged={refresh} onStaged={setStaged} />
      </main>
    </div>
  );
}
