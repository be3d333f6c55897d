// The model settings panel: the provider, the model, a local server's address and the key, each
// shown with where its value comes from now (set here, the server's environment, the default).
// Test asks the server whether a model with these settings could be asked, without saving; Save
// keeps them on the server for the next task and answer. The key goes to the server and never back.
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { api, ApiError } from "../api.ts";
import { MODEL_PROVIDERS, type ModelProvider, type ModelSettingsBody, type ModelSettingsReply, type ModelStatusReply, type SettingSource } from "../protocol.ts";
import { words } from "./model-setup-text.ts";

export interface ModelSettingsProps {
  open: boolean;
  onClose: () => void;
  /** The settings were saved: the model's readiness is worth asking again. */
  onSaved: () => void;
}

type Phase = { kind: "idle" } | { kind: "busy"; label: string } | { kind: "tested"; status: ModelStatusReply } | { kind: "failed"; message: string };

const FIELD = "h-11 w-full rounded-lg border border-zinc-300 bg-white px-3 text-[15px] text-zinc-900 outline-none placeholder:text-zinc-500 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-100";
const BUTTON = "min-h-11 min-w-11 rounded-lg px-4 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:opacity-60";

export function ModelSettings({ open, onClose, onSaved }: ModelSettingsProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [settings, setSettings] = useState<ModelSettingsReply | null>(null);
  const [provider, setProvider] = useState<ModelProvider>("qwen");
  const [model, setModel] = useState("");
  const [baseUrl, setBaseUrl] = useState("");
  const [apiKey, setApiKey] = useState("");
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  // The fields wait for what the server holds now: a choice made before it came would be overwritten by it.
  const [loaded, setLoaded] = useState(false);
  const titleId = useId();

  /** Only what was set here for the provider fills a field; the environment's and the defaults show as its placeholder. */
  const choose = (next: ModelProvider, known: ModelSettingsReply | null) => {
    const mine = known?.provider === next ? known : null;
    setPhase({ kind: "idle" });
    setProvider(next);
    setModel(mine?.from.model === "app" ? mine.model : "");
    setBaseUrl(mine?.from.base_url === "app" ? mine.base_url : "");
  };

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
    if (!open) return;
    let live = true;
    setApiKey("");
    setLoaded(false);
    api.modelSettings().then(
      (reply) => {
        if (!live) return;
        setSettings(reply);
        choose(reply.provider, reply);
        setLoaded(true);
      },
      () => {
        if (!live) return;
        setPhase({ kind: "failed", message: words.loadFailed });
        setLoaded(true);
      },
    );
    return () => {
      live = false;
    };
  }, [open]);

  const current = settings?.provider === provider ? settings : null;
  const body = (): ModelSettingsBody => ({ provider, model, base_url: baseUrl, ...(apiKey.trim() ? { api_key: apiKey } : {}) });
  const busy = phase.kind === "busy";
  const keyHint = () => {
    if (apiKey) return words.keyTyped;
    if (current?.key.set) return words.keySet(current.key.last4);
    return settings?.env_keys.includes(provider) ? words.keyInEnv : words.keyNone;
  };

  const test = async () => {
    setPhase({ kind: "busy", label: words.testing });
    try {
      setPhase({ kind: "tested", status: await api.testModelSettings(body()) });
    } catch (failure) {
      setPhase({ kind: "failed", message: failure instanceof ApiError ? failure.message : String(failure) });
    }
  };
  const save = async (event: FormEvent) => {
    event.preventDefault();
    setPhase({ kind: "busy", label: words.saving });
    try {
      setSettings(await api.saveModelSettings(body()));
      setApiKey("");
      setPhase({ kind: "idle" });
      onSaved();
    } catch (failure) {
      setPhase({ kind: "failed", message: failure instanceof ApiError ? failure.message : String(failure) });
    }
  };

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onClose={onClose}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      className="m-auto max-h-[calc(100%-1rem)] w-[calc(100%-1rem)] max-w-lg overflow-y-auto rounded-2xl bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-zinc-900/40"
    >
      <form onSubmit={(event) => void save(event)} className="flex flex-col gap-4 p-4 sm:p-6">
        <div className="flex items-start gap-2">
          <div className="min-w-0 flex-1">
            <h2 id={titleId} className="text-lg font-semibold">
              {words.title}
            </h2>
            <p className="mt-1 text-sm text-zinc-600">{words.intro}</p>
          </div>
          <button type="button" onClick={onClose} aria-label={words.close} className="-mt-2 -mr-2 flex size-11 shrink-0 items-center justify-center rounded-lg text-zinc-600 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-indigo-500">
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5">
              <path d="M5 5l10 10M15 5L5 15" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
            </svg>
          </button>
        </div>

        <fieldset disabled={!loaded} className="contents">
          <Field label={words.provider} source={current?.from.provider}>
            {(control) => (
              <select {...control} value={provider} onChange={(event) => choose(event.target.value as ModelProvider, settings)} className={FIELD}>
                {MODEL_PROVIDERS.map((p) => (
                  <option key={p} value={p}>
                    {words.providers[p]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={words.model} source={model ? "app" : current?.from.model}>
            {(control) => <input {...control} value={model} onChange={(event) => setModel(event.target.value)} placeholder={current?.model ?? settings?.defaults[provider].model} autoComplete="off" spellCheck={false} className={FIELD} />}
          </Field>
          <Field label={words.baseUrl} source={baseUrl ? "app" : current?.from.base_url} hint={words.baseUrlHint}>
            {(control) => (
              <input {...control} type="url" inputMode="url" value={baseUrl} onChange={(event) => setBaseUrl(event.target.value)} placeholder={current?.base_url ?? settings?.defaults[provider].base_url} autoComplete="off" spellCheck={false} className={FIELD} />
            )}
          </Field>
          <Field label={words.key} source={apiKey ? "app" : current?.key.set ? current.from.key : undefined} hint={keyHint()}>
            {(control) => <input {...control} type="password" value={apiKey} onChange={(event) => setApiKey(event.target.value)} autoComplete="off" spellCheck={false} className={FIELD} />}
          </Field>
        </fieldset>

        <Outcome phase={phase} />

        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" onClick={onClose} className={`${BUTTON} text-zinc-700 hover:bg-zinc-100`}>
            {words.cancel}
          </button>
          <button type="button" onClick={() => void test()} disabled={busy} className={`${BUTTON} border border-zinc-300 bg-white text-zinc-800 hover:bg-zinc-50`}>
            {words.test}
          </button>
          <button type="submit" disabled={busy} className={`${BUTTON} bg-indigo-600 text-white hover:bg-indigo-700`}>
            {words.save}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/** A labelled control, with where its value comes from and a hint under it. */
function Field({ label, source, hint, children }: { label: string; source?: SettingSource | undefined; hint?: string; children: (control: { id: string; "aria-describedby"?: string }) => ReactNode }) {
  const id = useId();
  const hintId = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="flex flex-wrap items-baseline gap-x-2 text-sm font-medium text-zinc-800">
        {label}
        {source && <span className="text-xs font-normal text-zinc-600">({words.from[source]})</span>}
      </label>
      {children(hint ? { id, "aria-describedby": hintId } : { id })}
      {hint && (
        <p id={hintId} className="text-xs text-zinc-600">
          {hint}
        </p>
      )}
    </div>
  );
}

/** What Test, Save or loading came to, in one live region so that each outcome is announced. */
function Outcome({ phase }: { phase: Phase }) {
  return (
    <div role="status" className="empty:hidden">
      {phase.kind === "busy" && <p className="text-sm text-zinc-700">{phase.label}</p>}
      {phase.kind === "tested" &&
        (phase.status.ready ? (
          <p className="rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-900">{words.works}</p>
        ) : (
          <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm break-words text-amber-950">{phase.status.detail}</p>
        ))}
      {phase.kind === "failed" && <p className="rounded-lg bg-red-50 px-3 py-2 text-sm break-words text-red-800">{phase.message}</p>}
    </div>
  );
}
