// What the runtime needs from the outside world, as interfaces: the store implements the
// recorders, the composition root supplies computers, planners and chat models. The agent
// imports no store and builds no computer or model itself.
import type { Computer, Screenshot } from "../computers/computer.ts";
import type { PersonWords } from "../core/approval-policy.ts";
import type { FrameOptions } from "../hands/hands.ts";
import type { ChatModel } from "../models/chat/chat-model.ts";
import type { Planner } from "../models/planner.ts";
import type { AgentEvent, Attachment, ChatMessage, ModelChoice, FrameRef, PersonInput, ProgressStep, Task, TaskFile } from "../protocol/index.ts";

export type { FrameOptions };

export interface StepFrame {
  ref: FrameRef;
  save(): Promise<void>;
}

/** A file the task received, as recorded: kept at `path` (absolute), or refused for the reason given. */
export type ReceivedFile = TaskFile & { path: string | null; refused: string | null };

export interface RunRecorder {
  /**
   * Persists the task, the message that asked for it and its attachments; creates the session if
   * new. A message stored before (the chat assistant started the task) is linked to the task.
   */
  createTask(task: Task, message: ChatMessage, attachments: Attachment[]): Promise<void>;
  saveTask(task: Task): Promise<void>;
  saveStep(step: ProgressStep): Promise<void>;
  addMessage(message: ChatMessage): Promise<void>;
  /** Names a step's frame — its ref holds from now on — and stores it when `save` is called. */
  stepFrame(task: Task, index: number, shot: Screenshot, options?: FrameOptions): StepFrame;
  /** Makes `shot` the task's live frame, in memory only: no disk or database write; its ref is good at once. */
  showLiveFrame(task: Task, shot: Screenshot): FrameRef;
  /**
   * Stores the task's live frame as it is now, for a restart to show. `done`: the task shows no
   * more frames, and the stored one answers for it from now on.
   */
  keepLiveFrame(task: Task, done?: boolean): Promise<void>;
  /** Calls `listener` now, and whenever it changes, with whether anyone has the session's stream open. */
  watchViewers(sessionId: string, listener: (watched: boolean) => void): () => void;
  /** Stores a long text (a page's article) and returns its id. */
  saveArtifact(task: Task, text: string): Promise<string>;
  /** The text of one of the task's artifacts, or null when it has none of that id. */
  readArtifact(task: Task, id: string): Promise<string | null>;
  /** Where a file the task received, by its id and its safe name, is to be written: an absolute path in the task's folder. */
  receivedFilePath(task: Task, id: string, name: string): string;
  /** Records a file the task received, kept or refused. */
  saveReceivedFile(task: Task, file: ReceivedFile): Promise<void>;
  /**
   * Whether this process still holds the task: false once another worker took it up
   * (store/task-leases.ts), and from then on nothing it records for the task is kept.
   */
  holds(): Promise<boolean>;
  /** Persists the event, then delivers it to the session's subscribers, in emission order. */
  emit(sessionId: string, event: AgentEvent): Promise<void>;
  /**
   * Keeps the cookies the chat's browser holds (JSON) where every worker reads them: not for a chat
   * deleted since, nor once another worker took the task up.
   */
  keepSignIns(sessionId: string, cookies: string): Promise<void>;
  /** The files the message that asked for the task carried, as they came (a task resumed after a restart). */
  taskAttachments(task: Task): Promise<Attachment[]>;
  /** What the person told the task while it ran (its follow-ups, read or not), oldest first. */
  taskFollowUps(taskId: string): Promise<ChatMessage[]>;
}

/** What the chat assistant records: the person's messages and its own, and the chat events. */
export interface ChatRecorder {
  /** Persists a message of the person with its attachments; creates the session if new. */
  addUserMessage(message: ChatMessage, attachments: Attachment[]): Promise<void>;
  addMessage(message: ChatMessage): Promise<void>;
  listMessages(sessionId: string): Promise<ChatMessage[]>;
  emit(sessionId: string, event: AgentEvent): Promise<void>;
}

export interface TaskResources {
  /** The task's computer, which keeps what it carries for the chat through `recorder`; `signal` ends a wait for one (a browser of a pool none of which is free) when the task is stopped. */
  openComputer(task: Task, signal: AbortSignal, recorder: RunRecorder): Promise<Computer>;
  /** Drops what the computers kept for a chat between its tasks (its browser's sign-ins): the chat was deleted. */
  forgetChat(sessionId: string): void;
  /** The planner for one task; adapters that hold a conversation give each task its own. */
  plannerFor(task: Pick<Task, "id" | "text">, choice?: ModelChoice): Planner;
  /** The chat model that drives the browser tool agent. */
  chatModel(): ChatModel;
}

/** What a worker needs, beside the stored task, to run it as `serve` would have (plain data: it travels in the queue). */
export interface QueuedTask {
  taskId: string;
  maxSteps: number;
  /** The person's own words and start page, when the chat assistant worded the task. */
  personWords: PersonWords | null;
  /** The task's own model, when not the configured one. */
  model: ModelChoice | null;
  /** Continue: the ended task it goes on from. */
  continues: string | null;
}

/** Where `serve` hands its tasks when workers run them (TASK_QUEUE=postgres): the queue, and the store's word on how each ended. */
export interface TaskDispatch {
  /** Hands a recorded task to the queue; resolves once the queue holds it. */
  enqueue(job: QueuedTask): Promise<void>;
  /** Resolves with the task as it ended, in whichever process ran it. */
  ended(task: Task): Promise<Task>;
  /** Gives the person's command to the worker that holds the task; resolves with its reply, or null when none holds it. */
  command<C extends TaskCommand>(taskId: string, command: C): Promise<CommandReply<C> | null>;
}

/** What the person does to a task under way (TaskCommands' methods of the same names), as it travels to a worker. */
export type TaskCommand =
  | { kind: "stop"; reason?: string }
  | { kind: "acknowledge"; text: string }
  | { kind: "decide"; approvalId: string; approved: boolean }
  | { kind: "takeOver" }
  | { kind: "handBack" }
  | { kind: "personInput"; input: PersonInput }
  | { kind: "tell"; text: string };

/** A command's reply: whether it took, or for `tell` the stored message and whether it answered a question. */
export type CommandReply<C extends TaskCommand> = C extends { kind: "tell" } ? { messageId: string; answered: boolean } | null : boolean;
