// The screen an approval asks about, with where the action lands marked on it: the target's box
// when it is known, else a ring at the point. Positions are shares of the picture, so the mark
// stays on its target at any size. An action inside a frame of another origin than the page's
// says which one: that origin is where it goes; above it, a warning when the action follows the
// page rather than the person, and for an upload, which of the person's files goes where. Presentational.
import type { Approval } from "../protocol.ts";
import { t } from "../i18n.ts";

/** Said above the screen when the action follows the page's text rather than the person's (`from_page`). */
export function ApprovalFromPage({ approval }: { approval: Approval }) {
  if (!approval.from_page) return null;
  return (
    <p data-testid="approval-from-page" className="mt-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm font-medium text-red-900">
      {t.approvalFromPage}
    </p>
  );
}

/** Said above the screen for an upload: the attachment's name, and the origin that would receive it. */
export function ApprovalUpload({ approval }: { approval: Approval }) {
  if (approval.action?.type !== "upload") return null;
  const to = approval.frame_origin ?? originOf(approval.url);
  return (
    <p data-testid="approval-upload" className="mt-2 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900">
      {t.approvalUpload(approval.action.args.name, to)}
    </p>
  );
}

function originOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** How tall the picture may be, as a share of the window's height, unless the stage it is on says. */
const SHOT_VH = 36;

export interface ApprovalShotProps {
  approval: Approval;
  /** Opens the picture enlarged; absent when it is. */
  onEnlarge?: () => void;
  /** Enlarged: at the screen's own size, to scroll about in (a phone's card shows it small). */
  full?: boolean;
}

export function ApprovalShot({ approval, onEnlarge, full = false }: ApprovalShotProps) {
  const { frame, box, at } = approval;
  if (!frame) return null;
  const share = (value: number, of: number) => `${(100 * value) / of}%`;
  return (
    <figure className={`overflow-hidden rounded-lg border border-zinc-200 bg-zinc-100 ${full ? "w-max" : "mt-3"}`}>
      {/* The marks are placed in shares of the picture alone: the caption below it is no part of the
          screen. Its height is held to a share of the window, so the card's question and its
          buttons are in view with it. */}
      <div className="relative mx-auto" style={full ? { width: frame.width } : { maxWidth: `calc(var(--screen-h, ${SHOT_VH}vh) * ${frame.width} / ${frame.height})` }}>
        <img src={frame.url} alt={t.approvalShot(approval.intent)} width={frame.width} height={frame.height} className="block h-auto w-full" />
        {box ? (
          <span
            data-testid="approval-target"
            aria-hidden="true"
            className="absolute rounded-sm outline-3 outline-offset-2 outline-amber-500"
            style={{ left: share(box.x, frame.width), top: share(box.y, frame.height), width: share(box.width, frame.width), height: share(box.height, frame.height) }}
          />
        ) : (
          at && (
            <span
              data-testid="approval-target"
              aria-hidden="true"
              // Hollow and wider than a button's label, so the label it marks reads through it.
              className="absolute size-14 -translate-x-1/2 -translate-y-1/2 rounded-full border-3 border-amber-500 shadow-[0_0_0_2px_rgba(255,255,255,0.85)]"
              style={{ left: share(at.x, frame.width), top: share(at.y, frame.height) }}
            />
          )
        )}
      </div>
      {(approval.url || approval.frame_origin || onEnlarge) && (
        <figcaption className="flex items-center gap-2 border-t border-zinc-200 bg-white px-2 py-1 text-xs text-zinc-600">
          <span className="min-w-0 flex-1">
            {approval.url && <span className="block truncate">{approval.url}</span>}
            {approval.frame_origin && (
              <span data-testid="approval-frame" className="block truncate font-medium text-amber-900">
                {t.approvalInFrame(approval.frame_origin)}
              </span>
            )}
          </span>
          {onEnlarge && (
            <button
              type="button"
              onClick={onEnlarge}
              className="shrink-0 rounded-md border border-zinc-300 px-2 py-0.5 font-medium text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-indigo-500 max-sm:min-h-11"
            >
              {t.enlargePicture}
            </button>
          )}
        </figcaption>
      )}
    </figure>
  );
}
