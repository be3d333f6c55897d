// The progress of one operation (a task's step, a tool call, an action), after Playwright's
// `Progress`: the signal that cancels it, its deadline — which stops counting while the person
// decides or has the screen — the timing of its phases for the step record, and a log of what it
// did. Computers, the hands and tool calls take one, so that an action cancelled is not started
// and one under way stops where it acts (between keystrokes, its page's loading stopped, a held
// button released) instead of carrying on after whoever waited for it has given up.
import { delay } from "./abort.ts";
import type { AppError } from "./errors.ts";
import type { Phase, PhaseClock } from "./phase-clock.ts";

/** Runs a wait for the person with the deadlines of the operation held. */
type Hold = <T>(wait: () => Promise<T>) => Promise<T>;

const unheld: Hold = (wait) => wait();
const LOG_LINES = 50;

export class Progress {
  protected constructor(
    /** Aborts, with the reason as an AppError or StopRequested, when the operation is cancelled or out of time. */
    readonly signal: AbortSignal,
    private readonly clock: PhaseClock | null,
    private readonly holdOuter: Hold,
    private readonly lines: string[],
  ) {}

  /** An operation cancelled only through `signal` (the task's Stop), its phases timed on `clock`. */
  static of(signal: AbortSignal, clock: PhaseClock | null = null): Progress {
    return new Progress(signal, clock, unheld, []);
  }

  /**
   * A part of this operation that must end within `timeoutMs` of its own, the time the person
   * takes not counted: past it, its signal aborts with `expired()`. End it with `end()`.
   */
  within(timeoutMs: number, expired: () => AppError): Deadline {
    return new Deadline(this, timeoutMs, expired, this.clock, (wait) => this.hold(wait), []);
  }

  /** Throws why the operation ended (Stop, a deadline) once it has: call before each part of an action. */
  check(): void {
    this.signal.throwIfAborted();
  }

  /** Runs a wait for the person (an approval, a takeover, an answer): no deadline counts meanwhile. */
  hold<T>(wait: () => Promise<T>): Promise<T> {
    this.check();
    return this.holdOuter(wait);
  }

  /** Runs `work`, its time counted under `phase` in the step record. */
  phase<T>(name: Phase, work: () => Promise<T>): Promise<T> {
    return this.clock ? this.clock.time(name, work) : work();
  }

  /** Resolves after `ms`, or throws why the operation ended if it ends first. */
  sleep(ms: number): Promise<void> {
    return delay(ms, this.signal);
  }

  /** Notes what the operation is doing, for whoever reports where it ended; the latest LOG_LINES are kept. */
  log(line: string): void {
    this.lines.push(line);
    if (this.lines.length > LOG_LINES) this.lines.shift();
  }

  /** What was noted, oldest first. */
  get logged(): readonly string[] {
    return this.lines;
  }
}

/** A part of an operation with a deadline of its own, which the person's time does not use up. */
export class Deadline extends Progress {
  private readonly expire: () => void;
  private timer: NodeJS.Timeout | null = null;
  private left: number;
  private since = performance.now();
  private held = 0;
  private ended = false;

  constructor(parent: Progress, timeoutMs: number, expired: () => AppError, clock: PhaseClock | null, holdOuter: Hold, lines: string[]) {
    const controller = new AbortController();
    super(AbortSignal.any([parent.signal, controller.signal]), clock, holdOuter, lines);
    this.left = timeoutMs;
    this.expire = () => {
      this.timer = null;
      controller.abort(expired());
    };
    this.start();
  }

  override async hold<T>(wait: () => Promise<T>): Promise<T> {
    this.check();
    if (this.held++ === 0) this.pause();
    try {
      return await super.hold(wait);
    } finally {
      if (--this.held === 0 && !this.signal.aborted && !this.ended) this.start();
    }
  }

  /** Stops the clock for good: the part is over, and a hold ending later does not start it again. */
  end(): void {
    this.ended = true;
    this.pause();
  }

  private start(): void {
    this.since = performance.now();
    this.timer = setTimeout(this.expire, Math.max(0, this.left));
  }

  private pause(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.left -= performance.now() - this.since;
  }
}
