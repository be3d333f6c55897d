// The banner that says the event stream is down and being reconnected.
import { t } from "../i18n.ts";

export function ConnectionBanner() {
  return (
    <div role="status" className="flex items-center justify-center gap-2 border-b border-amber-200 bg-amber-50 px-4 py-1.5 text-sm text-amber-900">
      <span aria-hidden="true" className="size-2 animate-pulse rounded-full bg-amber-500" />
      {t.connectionLost}
    </div>
  );
}
