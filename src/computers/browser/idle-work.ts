// Work a browser does between its task's steps (a spare context made ready): run once no operation
// has run on it for IDLE_AFTER_MS — most often its task is waiting for the model — or as it closes.
/** A browser with no operation for this long is idle. */
const IDLE_AFTER_MS = 200;

export class IdleWork {
  private readonly waiting: (() => void)[] = [];
  /** Operations in flight: while any runs, the browser is not idle. */
  private busy = 0;
  private timer: NodeJS.Timeout | null = null;

  /** `closed`: a closed browser is never idle again; its work ran as it closed. */
  constructor(private readonly closed: () => boolean) {}

  add(then: () => void): void {
    this.waiting.push(then);
  }

  /** Runs an operation on the browser, which is not idle meanwhile. */
  async during<T>(operation: () => Promise<T>): Promise<T> {
    this.busy++;
    this.stopTimer();
    try {
      return await operation();
    } finally {
      if (--this.busy === 0 && this.waiting.length > 0 && !this.closed()) this.timer = setTimeout(() => this.runNow(), IDLE_AFTER_MS).unref();
    }
  }

  /** Runs what waits at once (the browser closes). */
  runNow(): void {
    this.stopTimer();
    for (const then of this.waiting.splice(0)) then();
  }

  private stopTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
