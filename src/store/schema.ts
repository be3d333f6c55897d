// The tables as Kysely sees them, in SQLite and Postgres alike. JSON columns hold text validated at the edge.
import type { Generated } from "kysely";

export interface SessionsTable {
  id: string;
  title: string;
  /** 1 once the person has named the chat. */
  renamed: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface MessagesTable {
  id: string;
  session_id: string;
  task_id: string | null;
  role: string;
  kind: string;
  text: string;
  attachments: string;
  created_at: string;
}

export interface TasksTable {
  id: string;
  session_id: string;
  text: string;
  mode: string;
  replay_of: string | null;
  /** JSON {url, target_id}, or null. */
  cdp: string | null;
  computer: string;
  extension_client_id: string | null;
  start_url: string | null;
  status: string;
  current_step_index: number;
  live_frame_id: string | null;
  answer: string | null;
  /** JSON Approval, or null. */
  approval: string | null;
  error_code: string | null;
  error_message: string | null;
  model: string;
  input_tokens: number;
  output_tokens: number;
  /** Null: a model without a price spent some of the tokens, or the task was recorded before costs were. */
  cost_usd: number | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface StepsTable {
  id: string;
  task_id: string;
  idx: number;
  text: string;
  thought: string;
  action: string;
  frame_id: string | null;
  cursor_x: number | null;
  cursor_y: number | null;
  url: string | null;
  /** JSON StepEffect, or null. */
  effect: string | null;
  /** JSON StepVerification, or null. */
  verification: string | null;
  /** JSON ToolCallRecord, or null. */
  tool: string | null;
  /** JSON CarriedOut, or null. */
  carried_out: string | null;
  /** JSON StepTimings, or null (steps recorded before they were timed). */
  timings: string | null;
  planner: string;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
  created_at: string;
}

export interface EventsTable {
  session_id: string;
  seq: number;
  /** Null for chat events. */
  task_id: string | null;
  type: string;
  data: string;
  created_at: string;
}

export interface FramesTable {
  id: string;
  task_id: string;
  step_id: string | null;
  /** Relative to the data directory. */
  path: string;
  width: number;
  height: number;
  kind: string;
  version: Generated<number>;
  created_at: string;
}

export interface FilesTable {
  id: string;
  task_id: string;
  /** The step under way when the file began to arrive. */
  step: number;
  /** Made safe: no directory, no control characters. */
  name: string;
  mime_type: string;
  size: number;
  /** Relative to the data directory; null for a file refused. */
  path: string | null;
  /** Why the file was not kept (too large, failed), or null. */
  refused: string | null;
  created_at: string;
}

/** The last event id each session gave: taking the next one locks its row until the event is written. */
export interface EventSeqsTable {
  session_id: string;
  last: number;
}

/** A browser of BROWSER_CDP_URLS held by one task of one process until `expires_at`, renewed while it is held (browser-claims.ts). */
export interface BrowserClaimsTable {
  /** A hash of the browser's address: the address may hold a token. */
  endpoint: string;
  holder: string;
  expires_at: string;
}

/** The worker that holds a task it runs, and how many times the task was taken (store/task-leases.ts). */
export interface TaskLeasesTable {
  task_id: string;
  /** The process that took the task last, for the logs. */
  holder: string;
  epoch: number;
}

/** A chat's sign-ins when workers run its tasks: its browser's cookies, as JSON (computers/browser/sign-ins.ts). */
export interface ChatSignInsTable {
  session_id: string;
  cookies: string;
  updated_at: string;
}

export interface Database {
  sessions: SessionsTable;
  messages: MessagesTable;
  tasks: TasksTable;
  steps: StepsTable;
  events: EventsTable;
  event_seqs: EventSeqsTable;
  frames: FramesTable;
  files: FilesTable;
  browser_claims: BrowserClaimsTable;
  task_leases: TaskLeasesTable;
  chat_sign_ins: ChatSignInsTable;
}
