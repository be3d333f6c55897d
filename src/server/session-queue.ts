// A session's events as one streaming reply takes them: subscribed as a viewer, queued as they come,
// and handed out one at a time, with a pause for the keep-alive when none comes.
import type { SessionEvent } from "../protocol/index.ts";
import type { Store } from "../store/store.ts";

export class SessionQueue {
  private readonly queue: SessionEvent[] = [];
  private wakeUp: (() => void) | null = null;
  private unsubscribe: () => void = () => undefined;

  /** Every event of the session after `afterId`, then each new one. */
  static async open(store: Store, sessionId: string, afterId: number): Promise<SessionQueue> {
    const opened = new SessionQueue();
    opened.unsubscribe = await store.events.subscribe(
      sessionId,
      afterId,
      (event) => {
        opened.queue.push(event);
        opened.wake();
      },
      { viewer: true },
    );
    return opened;
  }

  /** The next event; null when `waitMs` passed without one, or when `wake` was called (the reader left). */
  async next(waitMs: number): Promise<SessionEvent | null> {
    const queued = this.queue.shift();
    if (queued) return queued;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.wake(), waitMs);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    return this.queue.shift() ?? null;
  }

  wake(): void {
    const wakeUp = this.wakeUp;
    this.wakeUp = null;
    wakeUp?.();
  }

  close(): void {
    this.unsubscribe();
    this.wake();
  }
}
