// The run card's header: status, the latest progress text, the timeline toggle and Stop.
import type { TaskStatus } from "../protocol.ts";
import { t } from "../i18n.ts";
import { StatusDot, statusLabel } from "./Status.tsx";

export interface ProgressHeaderProps {
  status: TaskStatus;
  latest: string;
  expanded: boolean;
  onToggle: () => void;
  timelineId: string;
  onStop?: (() => void) | undefined;
  stopping?: boolean;
}

export function ProgressHeader({ status, latest, expanded, onToggle, timelineId, onStop, stopping = false }: ProgressHeaderProps) {
  return (
    <div className="flex items-center gap-2 px-3 py-2.5 sm:px-4">
      <button
        type="button"
        onClick={onToggle}
        aria-expanded={expanded}
        aria-controls={timelineId}
        className="flex min-w-0 flex-1 items-center gap-2 rounded-md text-left focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
      >
        <StatusDot status={status} />
        <span className="shrink-0 text-sm font-medium text-zinc-900">{statusLabel(status)}</span>
        <span data-testid="latest-progress" className="min-w-0 flex-1 truncate text-sm text-zinc-600">
          {latest}
        </span>
        <span className="sr-only">{expanded ? t.hideProgress : t.showProgress}</span>
        <Chevron open={expanded} />
      </button>
      {onStop && (
        <button
          type="button"
          onClick={onStop}
          disabled={stopping}
          aria-label={t.stopTask}
          className="flex shrink-0 items-center gap-1.5 rounded-md border border-zinc-300 bg-white px-2.5 py-1 text-sm font-medium text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:opacity-50"
        >
          <span aria-hidden="true" className="size-2.5 rounded-[2px] bg-red-600" />
          {t.stop}
        </button>
      )}
    </div>
  );
}

export function Chevron({ open }: { open: boolean }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className={`size-4 shrink-0 text-zinc-500 transition-transform ${open ? "rotate-180" : ""}`}>
      <path d="M5 8l5 5 5-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
