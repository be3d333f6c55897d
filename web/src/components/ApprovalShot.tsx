// The screen an approval asks about, with where the action lands marked on it: the target's box
// when it is known, else a ring at the point. Positions are shares of the frame, so the mark
// stays on its target at any size. An action inside a frame of another origin than the page's
// says which one: that origin is where it goes. Presentational.
import type { Approval } from "../protocol.ts";
import { t } from "../i18n.ts";

export function ApprovalShot({ approval }: { approval: Approval }) {
  const { frame, box, at } = approval;
  if (!frame) return null;
  const share = (value: number, of: number) => `${(100 * value) / of}%`;
  return (
    <figure className="relative mt-3 overflow-hidden rounded-lg border border-zinc-200 bg-zinc-100">
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
            className="absolute size-8 -translate-x-1/2 -translate-y-1/2 rounded-full border-3 border-amber-500 bg-amber-400/25"
            style={{ left: share(at.x, frame.width), top: share(at.y, frame.height) }}
          />
        )
      )}
      {approval.url && <figcaption className="truncate border-t border-zinc-200 bg-white px-2 py-1 text-xs text-zinc-600">{approval.url}</figcaption>}
      {approval.frame_origin && (
        <figcaption data-testid="approval-frame" className="truncate border-t border-amber-200 bg-amber-50 px-2 py-1 text-xs font-medium text-amber-900">
          {t.approvalInFrame(approval.frame_origin)}
        </figcaption>
      )}
    </figure>
  );
}
