// The action scheduler (seed 004 §1 ActionScheduler, §2.1 rules 1–2, §5.1): one catalog action at
// a time per task; each must be acked within the ack timeout and answered within the execution
// timeout, or it fails (PLUGIN_TIMEOUT_ACK / _EXEC); a retryable error is tried once more after
// 1 s with the same id, which the extension answers from its memory if it ran the first; every
// action's life cycle (start, success, error) is recorded.
import type { Logger } from "pino";
import { setTimeout as delay } from "node:timers/promises";
import { AppError } from "../../core/errors.ts";
import { newId, nowIso } from "../../core/ids.ts";
import {
  actionParamsSchemas,
  actionResultSchemas,
  RETRYABLE_CODES,
  type ActionName,
  type ActionParams,
  type ActionResult,
  type ExtensionErrorCode,
  type ExtensionMessage,
} from "../../protocol/index.ts";
import type { ExtensionConnection } from "./connection.ts";

export interface SchedulerTimeouts {
  ackMs: number;
  execMs: number;
}

export interface ActionRecord {
  id: string;
  actionId: string;
  taskId: string;
  name: ActionName;
  phase: "start" | "success" | "error";
  at: string;
  code?: string;
  warnings?: string[];
}

export interface Done<N extends ActionName> {
  result: ActionResult<N>;
  /** What the extension could not do, when it did part of it (§4.5, §4.6). */
  warnings: string[];
}

type Reply = Extract<ExtensionMessage, { type: "browser_action_result" }>;

/** A retryable error is tried once more after this long (seed 004 §5.1). */
export const RETRY_AFTER_MS = 1_000;
const HISTORY = 500;

export class ActionScheduler {
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly history: ActionRecord[] = [];
  private counter = 0;

  constructor(
    private readonly timeouts: SchedulerTimeouts,
    private readonly log: Logger,
    /** The client's connection now: a retry goes to the one it reconnected with. */
    private readonly current: (clientId: string) => ExtensionConnection | null,
  ) {}

  /** The recorded life cycles of a task's actions, oldest first. */
  recordsOf(taskId: string): ActionRecord[] {
    return this.history.filter((r) => r.taskId === taskId);
  }

  /** Runs one action after the task's previous ones; resolves with its checked result. */
  run<N extends ActionName>(connection: ExtensionConnection, taskId: string, name: N, params: ActionParams<N>, execMs = this.timeouts.execMs): Promise<Done<N>> {
    const previous = this.queues.get(taskId) ?? Promise.resolve();
    const checked = actionParamsSchemas[name].safeParse(params);
    if (!checked.success) return Promise.reject(new AppError("SCHEMA_VALIDATION_FAILED", `${name}: ${checked.error.message}`));
    const next = previous.catch(() => undefined).then(() => this.attempts(connection, taskId, name, checked.data as Record<string, unknown>, execMs));
    this.queues.set(taskId, next);
    void next.finally(() => {
      if (this.queues.get(taskId) === next) this.queues.delete(taskId);
    }).catch(() => undefined);
    return next as Promise<Done<N>>;
  }

  private async attempts<N extends ActionName>(connection: ExtensionConnection, taskId: string, name: N, params: Record<string, unknown>, execMs: number): Promise<Done<N>> {
    const id = newId("act");
    const actionId = `${name}#${++this.counter}`;
    this.record({ id, actionId, taskId, name, phase: "start", at: nowIso() });
    for (let attempt = 1; ; attempt++) {
      try {
        const reply = await this.exchange(connection, { id, actionId, taskId, name, params }, execMs);
        const done = this.check(name, reply);
        this.record({ id, actionId, taskId, name, phase: "success", at: nowIso(), ...(done.warnings.length ? { warnings: done.warnings } : {}) });
        return done;
      } catch (error) {
        const retry = attempt === 1 && error instanceof AppError && error.retryable;
        if (!retry) {
          this.record({ id, actionId, taskId, name, phase: "error", at: nowIso(), code: error instanceof AppError ? error.code : "INTERNAL" });
          throw error;
        }
        await delay(RETRY_AFTER_MS);
        connection = this.current(connection.info.clientId) ?? connection;
      }
    }
  }

  /** Sends the action and waits for its ack, then its answer, each within its time. */
  private exchange(connection: ExtensionConnection, action: { id: string; actionId: string; taskId: string; name: ActionName; params: Record<string, unknown> }, execMs: number): Promise<Reply> {
    const { ackMs } = this.timeouts;
    return new Promise<Reply>((resolve, reject) => {
      if (!connection.connected) return reject(new AppError("PLUGIN_OFFLINE", `The extension is not connected; ${action.name} was not sent.`, { retryable: true }));
      let timer = setTimeout(() => fail("PLUGIN_TIMEOUT_ACK", `The extension did not acknowledge ${action.name} within ${ackMs} ms.`), ackMs);
      const stopExpecting = connection.expect(
        action.id,
        () => {
          clearTimeout(timer);
          timer = setTimeout(() => fail("PLUGIN_TIMEOUT_EXEC", `The extension did not finish ${action.name} within ${execMs} ms.`), execMs);
        },
        (reply) => {
          settle();
          resolve(reply);
        },
      );
      const stopWatching = connection.onClose(() => fail("PLUGIN_OFFLINE", `The extension disconnected during ${action.name}.`));
      function settle(): void {
        clearTimeout(timer);
        stopExpecting();
        stopWatching();
      }
      function fail(code: ExtensionErrorCode, message: string): void {
        settle();
        reject(new AppError(code, message, { retryable: true }));
      }
      connection.send({ type: "browser_action", ...action, clientId: connection.info.clientId });
    });
  }

  private check<N extends ActionName>(name: N, reply: Reply): Done<N> {
    if (!reply.ok) {
      const error = reply.error ?? { code: "ACTION_FAILED" as const, message: `${name} failed without saying why.` };
      throw new AppError(error.code, error.message, { retryable: error.retryable ?? RETRYABLE_CODES.has(error.code) });
    }
    const parsed = actionResultSchemas[name].safeParse(reply.result);
    if (!parsed.success) throw new AppError("SCHEMA_VALIDATION_FAILED", `The extension's result of ${name} is not of the contract: ${parsed.error.message}`);
    return { result: parsed.data as ActionResult<N>, warnings: reply.warnings ?? [] };
  }

  private record(entry: ActionRecord): void {
    this.history.push(entry);
    if (this.history.length > HISTORY) this.history.shift();
    this.log.info(entry, `extension action ${entry.phase}`);
  }
}
