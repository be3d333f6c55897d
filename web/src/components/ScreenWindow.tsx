// The screen window: a title bar (page URL, status dot, which frame this is), the frame itself
// and a marker where the step's action happened. Presentational: it shows the view it is given.
import type { TaskStatus } from "../protocol.ts";
import { t } from "../i18n.ts";
import type { ScreenView } from "../state/run-view.ts";
import { StatusDot } from "./Status.tsx";

export interface ScreenWindowProps {
  view: ScreenView;
  status: TaskStatus;
  /** "Live", "End" or "Step 2 of 5". */
  positionLabel: string;
  alt: string;
}

/** The image is never taller than this share of the viewport, so the whole card stays in view. */
const MAX_IMAGE_VH = 48;

export function ScreenWindow({ view, status, positionLabel, alt }: ScreenWindowProps) {
  const { frame, marker } = view;
  const aspect = frame ? `${frame.width} / ${frame.height}` : "16 / 10";
  return (
    <figure
      aria-label={t.screen}
      className="mx-auto w-full overflow-hidden rounded-lg border border-zinc-300 bg-zinc-900"
      style={{ maxWidth: `calc(${MAX_IMAGE_VH}vh * ${aspect})` }}
    >
      <figcaption className="flex items-center gap-2 border-b border-zinc-300 bg-zinc-100 px-3 py-1.5 text-xs">
        <StatusDot status={status} />
        <span data-testid="screen-url" className="min-w-0 flex-1 truncate font-mono text-zinc-700" title={view.url ?? undefined}>
          {view.url ?? t.screen}
        </span>
        <span data-testid="screen-position" className="shrink-0 font-medium text-zinc-600">
          {positionLabel}
        </span>
      </figcaption>
      <div className="relative w-full" style={{ aspectRatio: aspect }}>
        {frame ? (
          <img src={frame.url} alt={alt} className="absolute inset-0 size-full object-contain" draggable={false} />
        ) : (
          <div className="absolute inset-0 flex items-center justify-center text-sm text-zinc-400">{t.noFrame}</div>
        )}
        {frame && marker && (
          <span
            data-testid="action-marker"
            role="img"
            aria-label={t.actionMarker}
            className="pointer-events-none absolute size-7 -translate-x-1/2 -translate-y-1/2 rounded-full border-[3px] border-red-500 bg-red-500/15 shadow-[0_0_0_2px_rgba(255,255,255,0.85)]"
            style={{ left: `${marker.x * 100}%`, top: `${marker.y * 100}%` }}
          />
        )}
        {frame && view.actionLabel && (
          <p
            data-testid="action-label"
            className="absolute bottom-2 left-2 max-w-[80%] truncate rounded-md bg-zinc-900/80 px-2 py-0.5 font-mono text-xs text-zinc-100"
          >
            {view.actionLabel}
          </p>
        )}
      </div>
    </figure>
  );
}
