// At most so many tasks run at once, across sessions (each holds a browser context and a model
// conversation); the others wait their turn in the order they came, still `queued`. A task
// stopped while it waits does not wait any longer: it ends at once.
export class TaskQueue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  /** Whether work given now would wait its turn. */
  get full(): boolean {
    return this.running >= this.limit;
  }

  /** Runs `work` once a place is free (or at once when `signal` aborts), and frees the place when it ends. */
  async run<T>(work: () => Promise<T>, signal: AbortSignal): Promise<T> {
    if (this.running >= this.limit && !signal.aborted) {
      await new Promise<void>((resolve) => {
        const go = () => {
          signal.removeEventListener("abort", leave);
          resolve();
        };
        const leave = () => {
          this.waiting.splice(this.waiting.indexOf(go), 1);
          resolve();
        };
        this.waiting.push(go);
        signal.addEventListener("abort", leave, { once: true });
      });
    }
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      if (this.running < this.limit) this.waiting.shift()?.();
    }
  }
}
