// One chat: its messages and run cards, the drop zone for attachments and the prompt. With no
// session yet, the first message creates one.
import { useEffect, useRef, useState, type DragEvent } from "react";
import { api } from "../api.ts";
import { useSession } from "../hooks/useSession.ts";
import { useStageBox } from "../hooks/useStageBox.ts";
import { t } from "../i18n.ts";
import type { Attachment, ComputerKind, PersonInputBody } from "../protocol.ts";
import { isActive, type RunState } from "../state/session-state.ts";
import { ChatContainer } from "./ChatContainer.tsx";
import { ConnectionBanner } from "./ConnectionBanner.tsx";
import { shownError, type ShownError } from "./ErrorNotice.tsx";
import { RunAnnouncer } from "./RunAnnouncer.tsx";
import { AnswerMessage, FailedAnswer, QueuedRun, StreamingAnswer, UserMessage } from "./Message.tsx";
import { PromptInput } from "./PromptInput.tsx";
import { RunCard, type RunCardProps } from "./RunCard.tsx";
import { ThinkingBar } from "./ThinkingBar.tsx";

/**
 * The messages this page sent as tasks (with a start page, or on a computer the person picked): the
 * assistant's turn that starts one is no answer to wait for or stop, so the chat says the task is
 * starting. Kept beside the view, which a first message's new session mounts afresh.
 */
const askedTasks = new Set<string>();

export interface ChatViewProps {
  sessionId: string | null;
  onCreated: (sessionId: string) => void;
  onSessionsChanged: () => void;
  /** Whether a task's screen has the stage beside the chat (on a wide window the sessions list gives it room). */
  onStaged?: (staged: boolean) => void;
}

export function ChatView({ sessionId, onCreated, onSessionsChanged, onStaged }: ChatViewProps) {
  const session = useSession(sessionId, onSessionsChanged);
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  /** A message on its way: a task the person asked for, or words for the assistant. */
  const [sending, setSending] = useState<"task" | "message" | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const [dragging, setDragging] = useState(false);
  const [defaultComputer, setDefaultComputer] = useState<ComputerKind>("browser");
  useEffect(() => {
    api.health().then(
      (health) => setDefaultComputer(health.computer),
      () => undefined,
    );
  }, []);
  // A message sent while a task is under way goes to it: the answer it waits for, or a follow-up it reads at its next step.
  const active = Object.values(session.runs).find((run) => isActive(run.task.status))?.task;
  // While a task works or waits for the person, its screen is the main surface: on a wide window it
  // takes the stage beside the chat, which narrows to a column.
  const activeRun = active ? session.runs[active.id] : undefined;
  const activeShown = activeRun !== undefined && (activeRun.task.status !== "queued" || activeRun.steps.length > 0 || activeRun.task.live_frame !== null);
  // A run that ended while the person was in its player keeps the stage, until another takes it.
  const [held, setHeld] = useState<string | null>(null);
  if (held !== null && activeRun && activeRun.task.id !== held) setHeld(null);
  const stagedId = activeShown ? activeRun.task.id : held;
  const staged = stagedId !== null;
  const stage = useStageBox();
  useEffect(() => {
    onStaged?.(staged);
    return () => onStaged?.(false);
  }, [staged, onStaged]);
  const target = !active ? "new" : active.status === "awaiting_user" && !active.approval ? "reply" : "followUp";
  // A replay runs its recording and takes no new instructions.
  const blockedBy = active?.replay_of ? t.busy : !active && session.answering ? t.answering : null;
  // A session created for a first message whose send failed is reused by the next attempt.
  const draftSession = useRef<string | null>(null);

  const addFiles = (files: FileList) => {
    void Promise.all(Array.from(files, readAttachment)).then(
      (read) => setAttachments((current) => [...current, ...read]),
      (failure: unknown) => setError(shownError(failure)),
    );
  };

  const send = async (text: string, startUrl: string | undefined, computer: ComputerKind, extensionClient?: string): Promise<boolean> => {
    const asksTask = target === "new" && Boolean(startUrl || extensionClient || computer !== defaultComputer);
    setSending(asksTask ? "task" : "message");
    setError(null);
    try {
      const id = sessionId ?? draftSession.current ?? (draftSession.current = (await api.createSession()).id);
      // Files wait for the next new task: a running one takes none.
      const files = target === "new" ? attachments : [];
      const sent = await api.send({ session_id: id, text, attachments: files, computer, ...(startUrl ? { start_url: startUrl } : {}), ...(extensionClient ? { extension_client_id: extensionClient } : {}) });
      if (asksTask) askedTasks.add(sent.message_id);
      if (files.length > 0) setAttachments([]);
      onSessionsChanged();
      if (sessionId) await session.refresh();
      else onCreated(id);
      return true;
    } catch (failure) {
      setError(shownError(failure));
      return false;
    } finally {
      setSending(null);
    }
  };

  const stop = async (taskId: string) => {
    await api.stop(taskId);
  };
  const stopAnswer = async (messageId: string) => {
    await api.stopAnswer(messageId);
  };
  const ack = async (taskId: string, text: string) => {
    await api.ack(taskId, text);
    await session.refresh();
  };
  const runAgain = async (taskId: string) => {
    await api.runAgain(taskId);
    await session.refresh();
  };
  const retry = async (taskId: string) => {
    await api.retry(taskId);
    await session.refresh();
  };
  const continueTask = async (taskId: string) => {
    await api.continueTask(taskId);
    await session.refresh();
  };
  const takeOver = async (taskId: string) => {
    await api.takeOver(taskId);
  };
  const resume = async (taskId: string) => {
    await api.resume(taskId);
  };
  const input = async (taskId: string, personInput: PersonInputBody) => {
    await api.input(taskId, personInput);
  };
  const decide = async (taskId: string, approvalId: string, approved: boolean) => {
    await api.decide(taskId, approvalId, approved);
    await session.refresh();
  };

  const onDrag = (event: DragEvent<HTMLElement>, over: boolean) => {
    if (!event.dataTransfer.types.includes("Files")) return;
    event.preventDefault();
    setDragging(over);
  };
  const onDrop = (event: DragEvent<HTMLElement>) => {
    if (!event.dataTransfer.types.includes("Files")) return;
    event.preventDefault();
    setDragging(false);
    addFiles(event.dataTransfer.files);
  };

  const empty = session.loaded && session.items.length === 0 && sending === null;
  return (
    <section
      aria-label={t.chat}
      data-testid="chat-drop-zone"
      onDragEnter={(event) => onDrag(event, true)}
      onDragOver={(event) => onDrag(event, true)}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) onDrag(event, false);
      }}
      onDrop={onDrop}
      className="relative flex min-h-0 flex-1 flex-col"
      style={stage.style}
    >
      {session.connection === "lost" && <ConnectionBanner />}
      <RunAnnouncer runs={session.runs} loaded={session.loaded} />
      <div className="flex min-h-0 flex-1">
      <div className={`flex min-h-0 min-w-0 flex-1 flex-col ${staged ? "lg:w-84 lg:flex-none lg:border-r lg:border-zinc-200" : ""}`}>
      <ChatContainer>
        <div className="mx-auto flex w-full max-w-4xl flex-col gap-4 px-3 py-6 sm:px-6">
          {empty && (
            <div className="pt-[18vh] text-center">
              <h2 className="text-2xl font-semibold tracking-tight text-zinc-900">{t.emptyTitle}</h2>
              <p className="mt-2 text-zinc-500">{t.emptyHint}</p>
            </div>
          )}
          {!session.loaded && <ThinkingBar label={t.loading} />}
          {session.items.map((item) => {
            switch (item.kind) {
              case "user":
                return <UserMessage key={item.message.id} message={item.message} followUp={item.followUp} />;
              case "answer":
                return <AnswerMessage key={item.message.id} message={item.message} />;
              case "run":
                return <RunSlot key={`run-${item.taskId}`} run={session.runs[item.taskId]} staged={item.taskId === stagedId} onHoldStage={() => setHeld(item.taskId)} handlers={{ onStop: stop, onAck: ack, onDecide: decide, onRunAgain: runAgain, onRetry: retry, onContinue: continueTask, onTakeOver: takeOver, onResume: resume, onInput: input }} />;
              case "reply":
                if (!item.reply.text && askedTasks.has(item.reply.replyTo)) return <ThinkingBar key={item.reply.id} label={t.starting} />;
                return <StreamingAnswer key={item.reply.id} text={item.reply.text} onStop={() => stopAnswer(item.reply.replyTo)} />;
              case "failure":
                return <FailedAnswer key={item.reply.id} text={item.reply.text} error={item.reply.error} />;
            }
          })}
          {sending && <ThinkingBar label={sending === "task" ? t.starting : t.thinking} />}
        </div>
      </ChatContainer>
      <div className="mx-auto w-full max-w-4xl px-3 pb-3 sm:px-6 sm:pb-5">
        <PromptInput
          attachments={attachments}
          onAddFiles={addFiles}
          onRemoveAttachment={(index) => setAttachments((current) => current.filter((_, i) => i !== index))}
          onSend={send}
          defaultComputer={defaultComputer}
          sending={sending !== null}
          error={error}
          blockedBy={blockedBy}
          target={target}
        />
      </div>
      </div>
      {staged && <div ref={stage.slot} data-testid="stage" aria-hidden="true" className="hidden min-w-0 flex-1 bg-zinc-100 lg:block" />}
      </div>
      {dragging && (
        <div className="pointer-events-none absolute inset-2 z-20 flex items-center justify-center rounded-2xl border-2 border-dashed border-indigo-400 bg-indigo-50/90 text-lg font-medium text-indigo-800">
          {t.dropFiles}
        </div>
      )}
    </section>
  );
}

/**
 * A task's place in the chat: thinking until its first event, waiting while queued, then its run
 * card — which a task that has shown a screen keeps while it waits again (one answered after a
 * restart), "Waiting" in its header.
 */
function RunSlot({ run, staged, onHoldStage, handlers }: { run: RunState | undefined; staged: boolean; onHoldStage: () => void; handlers: Omit<RunCardProps, "run" | "staged" | "onHoldStage"> }) {
  if (!run) return <ThinkingBar />;
  const shown = run.steps.length > 0 || run.task.live_frame !== null;
  if (run.task.status === "queued" && !shown) return <QueuedRun onStop={() => handlers.onStop(run.task.id)} />;
  return <RunCard run={run} staged={staged} onHoldStage={onHoldStage} {...handlers} />;
}

function readAttachment(file: File): Promise<Attachment> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve({ name: file.name, mime_type: file.type || "application/octet-stream", data_url: String(reader.result) });
    reader.onerror = () => reject(reader.error ?? new Error(`Could not read ${file.name}.`));
    reader.readAsDataURL(file);
  });
}
