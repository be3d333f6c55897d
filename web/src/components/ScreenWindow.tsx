// The screen window: a title bar (page URL, status dot, which frame this is, its buttons), the
// frame itself and a marker where the step's action happened. With `control`, the screen is the
// person's (a takeover, or a task waiting for them to act): it is shown larger, and their clicks,
// wheel and keys on it become input for the computer, in frame pixels.
import { useEffect, useRef, type KeyboardEvent, type MouseEvent, type ReactNode } from "react";
import type { PersonInputBody, TaskStatus } from "../protocol.ts";
import { t } from "../i18n.ts";
import { framePoint, keyInput } from "../state/person-input.ts";
import type { ScreenView } from "../state/run-view.ts";
import { StatusDot } from "./Status.tsx";

export interface ScreenWindowProps {
  view: ScreenView;
  status: TaskStatus;
  /** "Live", "End" or "Step 2 of 5". */
  positionLabel: string;
  alt: string;
  /** Buttons in the title bar (Take over, Resume). */
  actions?: ReactNode;
  /** The screen is the person's: their input on the frame goes here. */
  control?: ((input: PersonInputBody) => void) | undefined;
}

/** The image is never taller than this share of the viewport, so the whole card stays in view; one the person works in gets more. */
const MAX_IMAGE_VH = 48;
const CONTROL_IMAGE_VH = 82;

export function ScreenWindow({ view, status, positionLabel, alt, actions, control }: ScreenWindowProps) {
  const { frame, marker } = view;
  const aspect = frame ? `${frame.width} / ${frame.height}` : "16 / 10";
  const at = (event: MouseEvent<HTMLElement>) => framePoint(event.currentTarget.getBoundingClientRect(), event.clientX, event.clientY, frame!);
  const surface = useRef<HTMLDivElement>(null);
  const latest = useRef({ control, frame });
  latest.current = { control, frame };
  const controlled = control !== undefined && frame !== null;
  // The wheel turns the person's screen, not the chat: React's wheel listener cannot keep the page still.
  useEffect(() => {
    const element = surface.current;
    if (!element || !controlled) return;
    const onWheel = (event: globalThis.WheelEvent) => {
      const { control: send, frame: shown } = latest.current;
      if (!send || !shown) return;
      event.preventDefault();
      const point = framePoint(element.getBoundingClientRect(), event.clientX, event.clientY, shown);
      send({ kind: "scroll", ...point, delta_x: Math.round(event.deltaX), delta_y: Math.round(event.deltaY) });
    };
    element.addEventListener("wheel", onWheel, { passive: false });
    return () => element.removeEventListener("wheel", onWheel);
  }, [controlled]);
  const handlers =
    control && frame
      ? {
          tabIndex: 0,
          role: "application",
          "aria-label": t.screenControl,
          // Focus for the keys that follow, without scrolling: the click is measured where it was pressed.
          onMouseDown: (event: MouseEvent<HTMLElement>) => event.currentTarget.focus({ preventScroll: true }),
          onClick: (event: MouseEvent<HTMLElement>) => control({ kind: "click", ...at(event), double: event.detail === 2 }),
          onContextMenu: (event: MouseEvent<HTMLElement>) => {
            event.preventDefault();
            control({ kind: "click", ...at(event), button: "right" });
          },
          onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
            const input = keyInput(event);
            if (!input) return;
            event.preventDefault();
            control(input);
          },
        }
      : {};
  return (
    <figure
      aria-label={t.screen}
      data-control={control ? "person" : undefined}
      className={`mx-auto w-full overflow-hidden rounded-lg border bg-zinc-900 ${control ? "border-sky-500 ring-2 ring-sky-400" : "border-zinc-300"}`}
      style={{ maxWidth: `calc(${control ? CONTROL_IMAGE_VH : MAX_IMAGE_VH}vh * ${aspect})` }}
    >
      <figcaption className="flex items-center gap-2 border-b border-zinc-300 bg-zinc-100 px-3 py-1.5 text-xs">
        <StatusDot status={status} />
        <span data-testid="screen-url" className="min-w-0 flex-1 truncate font-mono text-zinc-700" title={view.url ?? undefined}>
          {view.url ?? t.screen}
        </span>
        <span data-testid="screen-position" className="shrink-0 font-medium text-zinc-600">
          {positionLabel}
        </span>
        {actions}
      </figcaption>
      <div
        ref={surface}
        data-testid="screen-surface"
        className={`relative w-full ${control ? "cursor-crosshair touch-none focus-visible:outline-2 focus-visible:outline-sky-400" : ""}`}
        style={{ aspectRatio: aspect }}
        {...handlers}
      >
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
