// The task status as people see it: a coloured dot and a word.
import type { TaskStatus } from "../protocol.ts";
import { t } from "../i18n.ts";

export function statusLabel(status: TaskStatus): string {
  switch (status) {
    case "queued":
      return t.sessionStatus.waiting;
    case "running":
      return t.running;
    case "awaiting_user":
      return t.awaitingUser;
    case "takeover":
      return t.takeover;
    case "completed":
      return t.completed;
    case "failed":
      return t.failed;
    case "stopped":
      return t.stopped;
  }
}

const DOT: Record<TaskStatus, string> = {
  queued: "bg-indigo-400 animate-pulse",
  running: "bg-emerald-500 animate-pulse",
  awaiting_user: "bg-amber-500",
  takeover: "bg-sky-500",
  completed: "bg-emerald-600",
  failed: "bg-red-600",
  stopped: "bg-zinc-400",
};

export function StatusDot({ status }: { status: TaskStatus }) {
  return <span aria-hidden="true" className={`inline-block size-2.5 shrink-0 rounded-full ${DOT[status]}`} />;
}
