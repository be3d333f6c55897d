// The focus view: a run's screen as large as the window allows, with its timeline beside it (under
// it on a phone), on a native modal <dialog> that keeps the focus inside, closes on Escape or its
// Close button, and gives the focus back. The card decides what goes in it.
import { useEffect, useRef, type ReactNode } from "react";
import type { TaskStatus } from "../protocol.ts";
import { t } from "../i18n.ts";
import { StatusDot } from "./Status.tsx";

export interface FocusViewProps {
  title: string;
  status: TaskStatus;
  /** Buttons beside Close (Stop, I've done it). */
  actions?: ReactNode;
  onClose: () => void;
  children: ReactNode;
}

export function FocusView({ title, status, actions, onClose, children }: FocusViewProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  return (
    <dialog
      ref={dialog}
      aria-label={t.focusView}
      data-testid="focus-view"
      onClose={onClose}
      className="m-0 h-full max-h-none w-full max-w-none flex-col bg-white p-0 backdrop:bg-zinc-900/60 open:flex"
    >
      <header className="flex flex-wrap items-center gap-2 border-b border-zinc-200 px-3 py-2 sm:px-4">
        <StatusDot status={status} />
        <h2 className="min-w-0 flex-1 truncate text-sm font-medium text-zinc-900">{title}</h2>
        <div className="flex shrink-0 items-center gap-2">
          {actions}
          <button
            type="button"
            onClick={onClose}
            className="rounded-md border border-zinc-300 bg-white px-2.5 py-1 text-sm font-medium text-zinc-700 max-sm:min-h-11 max-sm:min-w-11 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
          >
            {t.closeFocus}
          </button>
        </div>
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto p-2 sm:p-4">{children}</div>
    </dialog>
  );
}
