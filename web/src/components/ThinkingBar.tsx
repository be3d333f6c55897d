// The indicator shown between sending a task and its first event.
import { t } from "../i18n.ts";

export function ThinkingBar({ label = t.thinking }: { label?: string }) {
  return (
    <div role="status" className="flex items-center gap-2 px-1 py-2 text-sm text-zinc-500">
      <span className="flex gap-1" aria-hidden="true">
        <span className="size-1.5 animate-bounce rounded-full bg-zinc-400 [animation-delay:-0.3s]" />
        <span className="size-1.5 animate-bounce rounded-full bg-zinc-400 [animation-delay:-0.15s]" />
        <span className="size-1.5 animate-bounce rounded-full bg-zinc-400" />
      </span>
      <span>{label}</span>
    </div>
  );
}
