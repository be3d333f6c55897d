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

  /**
   * Runs `work` once a place is free (or at once when `signal` aborts, over the limit, to end at
   * once), and frees the place when it ends. A place that frees up passes straight to the next
   * in line: work given meanwhile finds the queue still full.
   */
  async run<T>(work: () => Promise<T>, signal: AbortSignal): Promise<T> {
    if (this.running < this.limit || signal.aborted) this.running++;
    else {
      await new Promise<void>((resolve) => {
        const go = () => {
          signal.removeEventListener("abort", leave);
          resolve();
        };
        const leave = () => {
          this.waiting.splice(this.waiting.indexOf(go), 1);
          this.running++;
          resolve();
        };
        this.waiting.push(go);
        signal.addEventListener("abort", leave, { once: true });
      });
    }
    try {
      return await work();
    } finally {
      const next = this.running <= this.limit ? this.waiting.shift() : undefined;
      if (next) next();
      else this.running--;
    }
  }
}
