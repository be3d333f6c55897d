// Under the prompt when "My Chrome" is chosen: which of the person's Chromes the task will run in
// (a choice when several are connected), or, with none connected, how to connect one — the
// extension's folder, this server's address and the token to paste into its popup.
import type { ExtensionListing } from "../protocol.ts";
import { t } from "../i18n.ts";

export interface ExtensionStatusProps {
  extensions: ExtensionListing[] | null;
  chosen: string | null;
  onChoose: (clientId: string) => void;
  /** This server's address and install token, as the extension's popup asks for them. */
  serverUrl: string;
  token: string;
}

export function ExtensionStatus({ extensions, chosen, onChoose, serverUrl, token }: ExtensionStatusProps) {
  if (extensions === null) return <p className="border-t border-zinc-100 px-4 py-2 text-sm text-zinc-500">{t.extensionChecking}</p>;
  if (extensions.length === 0) {
    return (
      <div role="status" className="border-t border-amber-100 bg-amber-50 px-4 py-2 text-sm text-amber-900 last:rounded-b-2xl">
        <p className="font-medium">{t.extensionNone}</p>
        <p className="mt-1">{t.extensionHowTo}</p>
        <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 font-mono text-xs">
          <dt>{t.extensionServer}</dt>
          <dd className="break-all select-all">{serverUrl}</dd>
          <dt>{t.extensionToken}</dt>
          <dd className="break-all select-all">{token}</dd>
        </dl>
      </div>
    );
  }
  if (extensions.length === 1) {
    return (
      <p role="status" className="border-t border-zinc-100 px-4 py-2 text-sm text-emerald-700">
        {t.extensionConnected(extensions[0]!.name)}
      </p>
    );
  }
  return (
    <label className="flex items-center gap-2 border-t border-zinc-100 px-4 py-2 text-sm text-zinc-700">
      {t.extensionWhich}
      <select value={chosen ?? extensions[0]!.clientId} onChange={(event) => onChoose(event.target.value)} className="rounded-md border border-zinc-200 bg-zinc-50 px-2 py-1 max-sm:min-h-11">
        {extensions.map((e) => (
          <option key={e.clientId} value={e.clientId}>
            {e.name} · {e.clientId.slice(0, 8)}
          </option>
        ))}
      </select>
    </label>
  );
}
