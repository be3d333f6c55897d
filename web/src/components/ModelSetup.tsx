// Whether the server can ask its model, as the page knows it (GET /api/model-status, asked again
// every 15 s while it cannot), and the settings panel that fixes it. The banner, the composer and
// the header button read it from here, so a save clears the banner and frees the composer at once.
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { api } from "../api.ts";
import type { ModelStatusReply } from "../protocol.ts";
import { ModelSettings } from "./ModelSettings.tsx";
import { words } from "./model-setup-text.ts";

const RECHECK_MS = 15_000;

export interface ModelSetup {
  /** Null until the server has answered once. */
  status: ModelStatusReply | null;
  openSettings: () => void;
}

const ModelSetupContext = createContext<ModelSetup>({ status: null, openSettings: () => undefined });

export function useModelSetup(): ModelSetup {
  return useContext(ModelSetupContext);
}

export function ModelSetupProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<ModelStatusReply | null>(null);
  const [open, setOpen] = useState(false);
  const [saves, setSaves] = useState(0);
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
  }, [saves]);
  const setup = useMemo(() => ({ status, openSettings: () => setOpen(true) }), [status]);
  return (
    <ModelSetupContext.Provider value={setup}>
      {children}
      <ModelSettings
        open={open}
        onClose={() => setOpen(false)}
        onSaved={() => {
          setOpen(false);
          setSaves((n) => n + 1);
        }}
      />
    </ModelSetupContext.Provider>
  );
}

/** The header's way to the model settings, also once the model can be asked (another model, a new key). */
export function ModelSettingsButton() {
  const { openSettings } = useModelSetup();
  return (
    <button
      type="button"
      onClick={openSettings}
      aria-label={words.openSettings}
      title={words.openSettings}
      className="flex size-11 shrink-0 items-center justify-center rounded-lg text-zinc-600 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-indigo-500 md:size-9"
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5">
        <path d="M4 6h7M15 6h1M4 14h1M9 14h7" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
        <circle cx="13" cy="6" r="2" fill="none" stroke="currentColor" strokeWidth="1.8" />
        <circle cx="7" cy="14" r="2" fill="none" stroke="currentColor" strokeWidth="1.8" />
      </svg>
    </button>
  );
}
