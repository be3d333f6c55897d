// Who hears that a model request is being retried. The HTTP exchange (http.ts) says so before
// each backoff wait; whoever runs work that asks models (a task's run) listens around it. The
// listener rides the async context, so no planner or chat adapter has to pass it along, and the
// models layer knows nothing of who listens.
import { AsyncLocalStorage } from "node:async_hooks";

export interface RetryNotice {
  /** The retry about to be made, 1-based. */
  retry: number;
  /** How many retries the policy allows. */
  of: number;
}

export type RetryListener = (notice: RetryNotice) => void;

const listeners = new AsyncLocalStorage<RetryListener>();

/** Runs `work`; every model request retried inside it (and in what it starts) is told to `listener`. */
export function watchRetries<T>(listener: RetryListener, work: () => Promise<T>): Promise<T> {
  return listeners.run(listener, work);
}

/** Tells the listener of the current context, if any; a listener that throws does not hold up the retry. */
export function noticeRetry(notice: RetryNotice): void {
  try {
    listeners.getStore()?.(notice);
  } catch {
    // A side channel: the request goes on regardless.
  }
}
