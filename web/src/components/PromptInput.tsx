// The prompt: a growing text box (Enter sends, Shift+Enter breaks the line), the attachments
// about to be sent, a file picker, what the task drives (a browser, the desktop or the person's
// Chrome, with its connection shown under the box) and, for a browser, an optional start URL.
// While a task is under way the box talks to it instead: a follow-up, or the answer it waits for;
// what only a new task can take (files, the computer, a start URL) is put away until it ends.
// While the server has no model it can ask, nothing is sent: a line under the box says what to set
// and opens the model settings, rather than a message that would spin and then fail.
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { installToken } from "../api.ts";
import { useExtensions } from "../hooks/useExtensions.ts";
import { COMPUTERS, type Attachment, type ComputerKind } from "../protocol.ts";
import { t } from "../i18n.ts";
import { ErrorReason, type ShownError } from "./ErrorNotice.tsx";
import { ExtensionStatus } from "./ExtensionStatus.tsx";
import { AttachmentChip, PaperclipIcon } from "./Message.tsx";
import { useModelSetup } from "./ModelSetup.tsx";
import { words } from "./model-setup-text.ts";

export interface PromptInputProps {
  attachments: readonly Attachment[];
  onAddFiles: (files: FileList) => void;
  onRemoveAttachment: (index: number) => void;
  /**
   * Resolves true when the message went out, so the box can be cleared. `extensionClient`: the
   * Chrome chosen when several are connected.
   */
  onSend: (text: string, startUrl: string | undefined, computer: ComputerKind, extensionClient?: string) => Promise<boolean>;
  /** What the server drives unless told otherwise: the choice it starts from. */
  defaultComputer: ComputerKind;
  sending: boolean;
  error: ShownError | null;
  /** Why nothing can be sent now (the assistant is answering), or null. */
  blockedBy: string | null;
  /** Where a message goes: a new task or question, a follow-up to the running task, or the answer it waits for. */
  target: "new" | "followUp" | "reply";
}

const PROMPT_ID = "chat-prompt";

/** Puts focus on the message box (after a Stop, the chat takes the next message); false if there is none. */
export function focusPrompt(): boolean {
  const box = document.getElementById(PROMPT_ID);
  box?.focus();
  return box !== null;
}

/**
 * The first message of a new chat opens the chat's own page, whose prompt is a new one: it takes
 * focus over from the one the person typed in, if it appears soon after the message went out.
 */
let focusPromptUntil = 0;
const HAND_OVER_MS = 3000;

export function PromptInput({ attachments, onAddFiles, onRemoveAttachment, onSend, sending, error, blockedBy, defaultComputer, target }: PromptInputProps) {
  const [text, setText] = useState("");
  const [startUrl, setStartUrl] = useState("");
  const [chosen, setChosen] = useState<ComputerKind | null>(null);
  const computer = chosen ?? defaultComputer;
  const extensions = useExtensions(computer === "extension");
  const [extensionClient, setExtensionClient] = useState<string | null>(null);
  const fresh = target === "new";
  const hasAddressBar = fresh && computer !== "desktop";
  const files = useRef<HTMLInputElement>(null);
  const hasText = text.trim().length > 0;
  const { status: modelStatus, openSettings } = useModelSetup();
  const noModel = modelStatus !== null && !modelStatus.ready ? modelStatus : null;
  const canSend = hasText && !sending && blockedBy === null && noModel === null;
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (Date.now() > focusPromptUntil) return;
    focusPromptUntil = 0;
    box.current?.focus();
  }, []);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    const client = computer === "extension" && extensions && extensions.length > 1 ? (extensionClient ?? extensions[0]!.clientId) : undefined;
    // Focus stays in the box for the next message, also when the first message opens a new chat.
    focusPromptUntil = Number.POSITIVE_INFINITY;
    const sent = await onSend(text.trim(), hasAddressBar ? normalizeUrl(startUrl) : undefined, computer, client);
    focusPromptUntil = sent ? Date.now() + HAND_OVER_MS : 0;
    if (sent) {
      box.current?.focus();
      setText("");
      setStartUrl("");
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // While an input method composes (Chinese, Japanese), Enter confirms the composition.
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} className="rounded-2xl border border-zinc-300 bg-white shadow-sm focus-within:border-indigo-400 focus-within:ring-2 focus-within:ring-indigo-100">
      {attachments.length > 0 && (
        <ul aria-label={t.attachments} className="flex flex-wrap gap-1.5 px-3 pt-3">
          {attachments.map((file, index) => (
            <li key={`${file.name}-${index}`} className="flex items-center">
              <AttachmentChip name={file.name} tone="plain" />
              <button
                type="button"
                onClick={() => onRemoveAttachment(index)}
                aria-label={t.removeAttachment(file.name)}
                className="-ml-1 rounded-md px-1.5 text-zinc-500 max-sm:min-h-11 max-sm:min-w-11 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-indigo-500"
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <textarea
        ref={box}
        id={PROMPT_ID}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        aria-label={t.message}
        placeholder={target === "followUp" ? t.followUpPlaceholder : target === "reply" ? t.replyPlaceholder : t.messagePlaceholder}
        rows={1}
        className="block max-h-48 min-h-12 w-full resize-none bg-transparent px-4 pt-3 pb-1 text-[15px] outline-none [field-sizing:content] placeholder:text-zinc-400"
      />
      <div className="flex items-center gap-2 px-2 pb-2">
        <button
          type="button"
          onClick={() => files.current?.click()}
          disabled={!fresh}
          aria-label={t.attach}
          title={fresh ? t.attach : t.noFilesWhileRunning}
          className="flex size-9 max-sm:size-11 shrink-0 items-center justify-center rounded-lg text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:text-zinc-300 disabled:hover:bg-transparent"
        >
          <PaperclipIcon className="size-5" />
        </button>
        <input
          ref={files}
          type="file"
          multiple
          hidden
          onChange={(event) => {
            if (event.target.files) onAddFiles(event.target.files);
            event.target.value = "";
          }}
        />
        {fresh && (
          <select
            value={computer}
            onChange={(event) => setChosen(event.target.value as ComputerKind)}
            aria-label={t.computer}
            title={t.computer}
            className="h-9 max-sm:h-11 shrink-0 rounded-lg border border-zinc-200 bg-zinc-50 px-2 text-sm text-zinc-700 outline-none focus:border-indigo-400 focus:bg-white"
          >
            {COMPUTERS.map((kind) => (
              <option key={kind} value={kind}>
                {t.computers[kind]}
              </option>
            ))}
          </select>
        )}
        {hasAddressBar ? (
          <input
            type="text"
            inputMode="url"
            value={startUrl}
            onChange={(event) => setStartUrl(event.target.value)}
            aria-label={t.startUrl}
            placeholder={t.startUrl}
            className="h-9 max-sm:h-11 min-w-0 flex-1 rounded-lg border border-zinc-200 bg-zinc-50 px-3 text-sm outline-none placeholder:text-zinc-400 focus:border-indigo-400 focus:bg-white"
          />
        ) : (
          <span className="flex-1" />
        )}
        <button
          type="submit"
          disabled={!canSend}
          aria-label={t.send}
          className="flex h-9 max-sm:h-11 max-sm:min-w-11 shrink-0 items-center justify-center gap-1.5 rounded-lg bg-indigo-600 px-3 text-sm font-semibold text-white hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:bg-zinc-300"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4">
            <path d="M3 10l14-6-6 14-2-6-6-2z" fill="currentColor" />
          </svg>
          <span className="hidden sm:inline">{t.send}</span>
        </button>
      </div>
      {fresh && computer === "extension" && (
        <ExtensionStatus extensions={extensions} chosen={extensionClient} onChoose={setExtensionClient} serverUrl={location.origin} token={installToken} />
      )}
      {error && (
        <div role="alert" className="border-t border-red-100 px-4 py-2 text-sm text-red-700">
          <ErrorReason error={error} />
        </div>
      )}
      {noModel && (
        <div role="status" className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-b-2xl border-t border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-950">
          <p className="min-w-0 flex-1 basis-56">{words.problems[noModel.problem].composer(noModel.endpoint)}</p>
          <button
            type="button"
            onClick={openSettings}
            className="min-h-11 shrink-0 rounded-lg border border-amber-400 bg-white px-3 text-sm font-semibold text-amber-950 hover:bg-amber-100 focus-visible:outline-2 focus-visible:outline-indigo-500 sm:min-h-9"
          >
            {words.openSettings}
          </button>
        </div>
      )}
      {!error && hasText && blockedBy && (
        <p role="status" className="border-t border-zinc-100 px-4 py-2 text-sm text-zinc-600">
          {blockedBy}
        </p>
      )}
    </form>
  );
}

/** A start URL typed without a scheme is taken as https. */
function normalizeUrl(raw: string): string | undefined {
  const url = raw.trim();
  if (!url) return undefined;
  return /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`;
}
