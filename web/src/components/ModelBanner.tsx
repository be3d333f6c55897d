// The first run's banner: the server cannot ask its model (no key, a model server that does not
// answer, or one that does not take the key), so what to set is said before anyone sends a message, with the button that opens the
// model settings where it can be set. It goes away once the model can be asked.
import { t } from "../i18n.ts";
import { useModelSetup } from "./ModelSetup.tsx";
import { words } from "./model-setup-text.ts";

export function ModelBanner() {
  const { status, openSettings } = useModelSetup();
  if (!status || status.ready) return null;
  const problem = words.problems[status.problem];
  return (
    <div role="alert" className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-950">
      <div className="min-w-0 flex-1 basis-64">
        <p>
          <strong className="font-semibold">{problem.title(status.endpoint)}</strong> {problem.how}
        </p>
        <details className="mt-1 text-xs text-amber-900">
          <summary className="cursor-pointer">{t.modelDetails}</summary>
          <code className="break-all">{status.detail}</code>
        </details>
      </div>
      <button
        type="button"
        onClick={openSettings}
        className="min-h-11 shrink-0 rounded-lg bg-amber-900 px-3 text-sm font-semibold text-white hover:bg-amber-950 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-900 sm:min-h-9"
      >
        {words.openSettings}
      </button>
    </div>
  );
}
