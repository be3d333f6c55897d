// The first run's banner: the server cannot ask its model (no key, or a model server that does not
// answer), so the one setting to change is said before anyone sends a message. Asked again every
// 30 s while it shows, so it goes away once the server was started right.
import { useEffect, useState } from "react";
import { api } from "../api.ts";
import { t } from "../i18n.ts";
import type { ModelStatusReply } from "../protocol.ts";

const RECHECK_MS = 30_000;

export function ModelBanner() {
  const [status, setStatus] = useState<ModelStatusReply | null>(null);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let live = true;
    const check = () =>
      api.modelStatus().then(
        (reply) => {
          if (!live) return;
          setStatus(reply);
          if (!reply.ready) timer = setTimeout(check, RECHECK_MS);
        },
        () => undefined,
      );
    void check();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, []);
  if (!status || status.ready) return null;
  return (
    <div role="alert" className="border-b border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-950">
      <p>
        {status.problem === "no_key" ? (
          <>
            {t.modelNoKey(status.setting)}; {t.modelNoKeyLocal}
          </>
        ) : (
          t.modelUnreachable(status.endpoint, status.setting)
        )}
      </p>
      <details className="mt-1 text-xs text-amber-900">
        <summary className="cursor-pointer">{t.modelDetails}</summary>
        <code className="break-all">{status.detail}</code>
      </details>
    </div>
  );
}
