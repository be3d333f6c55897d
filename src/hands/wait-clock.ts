// The timing of `wait`: a wait of N ms ends N ms after the previous action's effect settled, and the
// action after it lands then, not once the step has been recorded, the model asked and the action
// checked. So the wait gives its picture back a little before its end (the lead) and holds the next
// action until the end: what comes between two actions is done meanwhile, and only what takes
// longer than the lead (a slow model) makes the next action late.
import type { Progress } from "../core/progress.ts";
import type { ScreenAction } from "../perception/resolve.ts";

/** The lead at most: beyond it, a slow model's time would be taken out of the wait for little gain. */
const LEAD_CAP_MS = 1_000;
/** A wait keeps at least this share of its time before its picture: what it waits for has mostly had its time. */
const LEAD_SHARE = 0.5;
/** How long before a wait's end the page is read for the next action's effect check, at least: a read's round trip. */
const READ_AHEAD_MS = 10;
/** How many of the last gaps between two actions the lead is taken from: the longest of them. */
const GAPS_KEPT = 5;

type Wait = Extract<ScreenAction, { type: "wait" }>;

export class WaitClock {
  /** When the last action's effect settled (performance.now()): a wait counts from there. */
  private settledAt: number | null = null;
  /** The end of a wait that gave its picture back early: the next action lands no sooner. */
  private holdUntil: number | null = null;
  /** When the hands last gave back what an action did, while no action has got ready since. */
  private returnedAt: number | null = null;
  /** The times between an action given back and the next one ready to land, newest last. */
  private readonly gaps: number[] = [];
  /** How long the last read before a held action took: the next one starts that long before the end. */
  private readMs = READ_AHEAD_MS;

  /** The last action's effect settled now. */
  settled(): void {
    this.settledAt = performance.now();
  }

  /** What an action did was given back: the time to the next one starts. */
  returned(): void {
    this.returnedAt = performance.now();
  }

  /**
   * The wait to run now: what is left of it since the previous action settled, less the lead,
   * which the next action is held for (`ready`).
   */
  wait(wait: Wait): Wait {
    const now = performance.now();
    const end = (this.settledAt ?? now) + wait.args.ms;
    const lead = Math.max(0, Math.min(this.lead(), wait.args.ms * LEAD_SHARE, end - now));
    this.holdUntil = end;
    // The wait is the previous action now: a wait after it counts from its end.
    this.settledAt = end;
    return { ...wait, args: { ...wait.args, ms: Math.max(0, end - now - lead) } };
  }

  /**
   * The next action is checked and about to land: held until the end of a wait before it, if any.
   * `read` reads the page as it is before the action (`held`: an earlier read is out of date), just
   * before that end, so that what the page does during the hold is not taken for the action's effect
   * and the action lands at the end, not a read later.
   */
  async ready<T>(progress: Progress, read: (held: boolean) => Promise<T>): Promise<T> {
    const now = performance.now();
    if (this.returnedAt !== null) {
      this.gaps.push(now - this.returnedAt);
      if (this.gaps.length > GAPS_KEPT) this.gaps.shift();
      this.returnedAt = null;
    }
    const until = this.holdUntil;
    this.holdUntil = null;
    if (until === null || until <= now) return read(false);
    await progress.sleep(Math.max(0, until - Math.max(READ_AHEAD_MS, this.readMs) - now));
    const reading = performance.now();
    const before = await read(true);
    this.readMs = performance.now() - reading;
    const left = until - performance.now();
    if (left > 0) await progress.sleep(left);
    return before;
  }

  /** The longest recent gap between two actions, the cap before any was seen. */
  private lead(): number {
    return Math.min(LEAD_CAP_MS, this.gaps.length > 0 ? Math.max(...this.gaps) : LEAD_CAP_MS);
  }
}
