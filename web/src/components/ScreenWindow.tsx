// The screen window: a title bar (page URL, status dot, which frame this is, a step's Before /
// After switch, its buttons), the frame itself and a marker where the step's action happened.
// With `control`, the screen is the person's (a takeover, or a task waiting for them to act): it
// is shown larger, and their clicks, wheel and keys on it become input for the computer, in frame
// pixels. In the focus view it fills the window and zooms (pinch, Ctrl+wheel, its buttons).
import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from "react";
import { usePinchZoom } from "../hooks/usePinchZoom.ts";
import type { PersonInputBody, TaskStatus } from "../protocol.ts";
import { t } from "../i18n.ts";
import { framePoint, keyInput } from "../state/person-input.ts";
import type { ScreenView, Shot } from "../state/run-view.ts";
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
  /** Shows a step's other screenshot (before or after its action). */
  onShot?: ((shot: Shot) => void) | undefined;
  /** Opens the focus view; absent inside it. */
  onEnlarge?: (() => void) | undefined;
  /** In the focus view: as large as the window allows, and zoomable. */
  focus?: boolean;
  /** How large: by default a card's size, a takeover's (with `control`) or the focus view's. */
  size?: keyof typeof IMAGE_VH;
  /** Classes for the frame around it (how it sits in the card on a phone). */
  className?: string;
}

/**
 * How tall the image may be, as a share of the viewport: in a card, small enough for the whole card
 * to stay in view (a card asking the person to act keeps its question and buttons in view too); a
 * takeover's screen, large to work in; the focus view, as large as the window allows.
 */
const IMAGE_VH = { card: 48, work: 82, focus: 72 } as const;

export function ScreenWindow({ view, status, positionLabel, alt, actions, control, onShot, onEnlarge, focus = false, size, className = "" }: ScreenWindowProps) {
  const { frame, marker } = view;
  const aspect = frame ? `${frame.width} / ${frame.height}` : "16 / 10";
  const at = (event: MouseEvent<HTMLElement>) => framePoint(event.currentTarget.getBoundingClientRect(), event.clientX, event.clientY, frame!);
  const surface = useRef<HTMLDivElement>(null);
  const latest = useRef({ control, frame });
  latest.current = { control, frame };
  const controlled = control !== undefined && frame !== null;
  const { box, zoom, zoomBy, reset } = usePinchZoom(focus, !controlled);
  // The wheel turns the person's screen, not the chat: React's wheel listener cannot keep the page still.
  useEffect(() => {
    const element = surface.current;
    if (!element || !controlled) return;
    const onWheel = (event: globalThis.WheelEvent) => {
      const { control: send, frame: shown } = latest.current;
      // In the focus view Ctrl+wheel (a trackpad's pinch) zooms instead.
      if (!send || !shown || (focus && event.ctrlKey)) return;
      event.preventDefault();
      const point = framePoint(element.getBoundingClientRect(), event.clientX, event.clientY, shown);
      send({ kind: "scroll", ...point, delta_x: Math.round(event.deltaX), delta_y: Math.round(event.deltaY) });
    };
    element.addEventListener("wheel", onWheel, { passive: false });
    return () => element.removeEventListener("wheel", onWheel);
  }, [controlled, focus]);
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
      className={`mx-auto w-full overflow-hidden rounded-lg border bg-zinc-900 ${control ? "border-sky-500 ring-2 ring-sky-400" : "border-zinc-300"} ${className}`}
      // The stage sets how tall its screen may be (--screen-h); elsewhere a share of the window.
      style={{ maxWidth: `calc(var(--screen-h, ${IMAGE_VH[size ?? (focus ? "focus" : control ? "work" : "card")]}vh) * ${aspect})` }}
    >
      <figcaption className="flex items-center gap-2 border-b border-zinc-300 bg-zinc-100 px-3 py-1.5 text-xs">
        <StatusDot status={status} />
        <span data-testid="screen-url" className="min-w-0 flex-1 truncate font-mono text-zinc-700" title={view.url ?? undefined}>
          {view.url ?? t.screen}
        </span>
        <span data-testid="screen-position" className="shrink-0 font-medium text-zinc-600">
          {positionLabel}
        </span>
        {view.canSwitch && view.shot && onShot && <ShotSwitch shot={view.shot} onShot={onShot} />}
        {actions}
        {onEnlarge && (
          <button type="button" onClick={onEnlarge} aria-label={t.enlarge} title={t.enlarge} className={ICON_BUTTON}>
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4">
              <path d="M12 3h5v5M8 17H3v-5M17 3l-6 6M3 17l6-6" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          </button>
        )}
      </figcaption>
      <div ref={box} data-testid="screen-zoom" className={`relative w-full overflow-hidden ${focus ? "touch-none" : ""}`} style={{ aspectRatio: aspect }}>
        <div
          ref={surface}
          data-testid="screen-surface"
          className={`absolute inset-0 origin-top-left ${control ? "cursor-crosshair touch-none focus-visible:outline-2 focus-visible:outline-sky-400" : ""}`}
          style={zoom.scale === 1 ? undefined : { transform: `translate(${zoom.x}px, ${zoom.y}px) scale(${zoom.scale})` }}
          {...handlers}
        >
          {frame ? (
            <FrameImage url={frame.url} alt={alt} />
          ) : (
            <div className="absolute inset-0 flex items-center justify-center text-sm text-zinc-400">{t.noFrame}</div>
          )}
          {frame && marker && (
            <span
              data-testid="action-marker"
              role="img"
              aria-label={t.actionMarker}
              // Hollow, so the label it marks reads through it.
              className="pointer-events-none absolute size-7 rounded-full border-[3px] border-red-500 shadow-[0_0_0_2px_rgba(255,255,255,0.85)]"
              // It keeps its size as the screen zooms.
              style={{ left: `${marker.x * 100}%`, top: `${marker.y * 100}%`, transform: `translate(-50%, -50%) scale(${1 / zoom.scale})` }}
            />
          )}
        </div>
        {frame && view.actionLabel && (
          <p
            data-testid="action-label"
            className={`pointer-events-none absolute bottom-2 left-2 truncate rounded-md bg-zinc-900/80 px-2 py-0.5 font-mono text-xs text-zinc-100 ${focus ? "max-w-[55%]" : "max-w-[80%]"}`}
          >
            {view.actionLabel}
          </p>
        )}
        {/* The buttons zoom about the action's marker, where there is one. */}
        {focus && frame && <ZoomButtons percent={Math.round(zoom.scale * 100)} onZoom={(factor) => zoomBy(factor, marker)} onReset={reset} />}
      </div>
    </figure>
  );
}

/**
 * The frame's picture. Under it lies the last frame that loaded, so a frame that fails to load (gone
 * from the server, cut off on the way) leaves that one in view, never a broken-image icon, and one
 * still loading never blanks the screen.
 */
function FrameImage({ url, alt }: { url: string; alt: string }) {
  const [good, setGood] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  return (
    <>
      {good && <div data-testid="last-good-frame" aria-hidden="true" className="absolute inset-0 bg-contain bg-center bg-no-repeat" style={{ backgroundImage: `url("${good}")` }} />}
      {failed !== url && (
        <img src={url} alt={alt} className="absolute inset-0 size-full object-contain" draggable={false} onLoad={() => setGood(url)} onError={() => setFailed(url)} />
      )}
    </>
  );
}

const ICON_BUTTON =
  "flex size-6 max-sm:size-11 shrink-0 items-center justify-center rounded-md text-zinc-600 hover:bg-zinc-200 focus-visible:outline-2 focus-visible:outline-indigo-500";

/** A step's two screenshots, one click apart: before its action (marked) and after it. */
function ShotSwitch({ shot, onShot }: { shot: Shot; onShot: (shot: Shot) => void }) {
  const option = (value: Shot, label: string) => (
    <button
      type="button"
      aria-pressed={shot === value}
      onClick={() => onShot(value)}
      className={`px-2 py-0.5 max-sm:min-h-11 max-sm:min-w-11 focus-visible:outline-2 focus-visible:outline-indigo-500 ${shot === value ? "bg-zinc-700 text-white" : "bg-white text-zinc-700 hover:bg-zinc-100"}`}
    >
      {label}
    </button>
  );
  return (
    <span role="group" aria-label={t.whichShot} className="flex shrink-0 overflow-hidden rounded-md border border-zinc-300 text-xs font-medium">
      {option("before", t.before)}
      {option("after", t.after)}
    </span>
  );
}

function ZoomButtons({ percent, onZoom, onReset }: { percent: number; onZoom: (factor: number) => void; onReset: () => void }) {
  const button = "flex h-7 min-w-7 max-sm:h-11 max-sm:min-w-11 items-center justify-center px-1.5 text-xs font-medium text-zinc-100 hover:bg-white/15 focus-visible:outline-2 focus-visible:outline-sky-400 sm:h-8 sm:min-w-8 sm:px-2 sm:text-sm";
  return (
    <div role="group" aria-label={t.zoom} className="absolute right-1.5 bottom-1.5 flex overflow-hidden rounded-md bg-zinc-900/75 shadow sm:right-2 sm:bottom-2">
      <button type="button" onClick={() => onZoom(1 / 1.5)} aria-label={t.zoomOut} className={button}>
        −
      </button>
      <button type="button" onClick={onReset} aria-label={t.zoomReset} data-testid="zoom-level" className={`${button} tabular-nums`}>
        {percent}%
      </button>
      <button type="button" onClick={() => onZoom(1.5)} aria-label={t.zoomIn} className={button}>
        +
      </button>
    </div>
  );
}
