// What drives a task, as one interface: the planner loop, the tool agent and replay are peers.
// A run hands its driver the computer, the hands, the person gate, the budget and the step
// recorder; the driver decides what to do and says how the task ended.
import type { Computer } from "../computers/computer.ts";
import type { Config } from "../core/config.ts";
import type { Progress } from "../core/progress.ts";
import type { Secrets } from "../core/secrets.ts";
import type { Hands } from "../hands/hands.ts";
import type { AttachedFile } from "../models/attachments.ts";
import type { Attachment, Task } from "../protocol/index.ts";
import type { Budget } from "./budget.ts";
import type { FileKeeper } from "./file-keeper.ts";
import type { FollowUps } from "./follow-ups.ts";
import type { PersonGate } from "./person-gate.ts";
import type { StepRecorder } from "./step-recorder.ts";

export type Outcome =
  | { status: "completed"; answer: string }
  | { status: "failed"; code: string; message: string }
  | { status: "stopped"; reason: string };

export interface RunContext {
  /** The task as recorded now. */
  task(): Task;
  attachments: Attachment[];
  /** The attachments read for the model once, within MODEL_ATTACHMENTS_KB (models/attachments.ts). */
  attached: readonly AttachedFile[];
  computer: Computer;
  hands: Hands;
  config: Config;
  /** The task secrets: what the model reads is concealed with them. */
  secrets: Secrets;
  /** The task's progress: its Stop, and the timing of the phases of the step being made (core/progress.ts). */
  progress: Progress;
  budget: Budget;
  gate: PersonGate;
  /** What the person tells the task while it runs: a driver takes it when it plans its next step. */
  followUps: FollowUps;
  steps: StepRecorder;
  /** The files the computer received: a driver tells the model of new ones at its next step. */
  files: FileKeeper;
  /** Stores a long text (a page's article) and returns its id. */
  saveArtifact(text: string): Promise<string>;
  /** The text of one of the task's artifacts, or null when it has none of that id. */
  readArtifact(id: string): Promise<string | null>;
}

export interface Driver {
  /** How the task names what drives it (`qwen2.5-vl-72b-instruct`, `gpt-4.1 (dom tools)`). */
  readonly label: string;
  /** Drives the task from the first screen (`hands.screen`) to its end. */
  drive(run: RunContext): Promise<Outcome>;
}
