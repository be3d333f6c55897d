// The task's live view: its screen as it changes, for whoever watches the session. While someone
// has the session's stream open, the computer's frames go out as `screen.live`, at most `fps` a
// second; while nobody does, the computer sends none, and the screens the task takes itself (its
// first look, each step's) are only held in memory, the newest going out at once when a viewer
// comes. The newest frame is stored now and then and at the end, for a restart to show. No frame
// goes out before the task's first look: a viewer is shown the start page as the model first saw
// it, never the blank page the computer opened on.
import type { Logger } from "pino";
import type { Computer, Screenshot } from "../computers/computer.ts";
import type { FrameRef } from "../protocol/index.ts";
import type { TaskRecord } from "./task-record.ts";

/** A running task's live frame is written to disk at most this often: a server that dies loses no more. */
const KEEP_EVERY_MS = 5000;

export interface LiveViewOptions {
  computer: Pick<Computer, "onLiveFrame">;
  record: TaskRecord;
  fps: number;
  /** Sends a frame, already shown, to the session's viewers. */
  publish(frame: FrameRef): Promise<void>;
  log: Logger;
}

export class LiveView {
  private readonly frames: ReturnType<typeof throttleFrames>;
  private readonly stopWatching: () => void;
  private watched = false;
  /** The first look has been taken: the computer's own frames may go out. */
  private begun = false;
  private stopFrames: (() => void) | null = null;
  private shown = false;
  private keptAt = 0;
  private keeping: Promise<void> = Promise.resolve();

  constructor(private readonly options: LiveViewOptions) {
    this.frames = throttleFrames(options.fps, (frame) => this.deliver(frame));
    const { record } = options;
    this.stopWatching = record.recorder.watchViewers(record.current.session_id, (watched) => this.watch(watched));
  }

  /** The task's first look, the first frame a viewer sees; the computer's frames follow it. */
  begin(shot: Screenshot): void {
    this.begun = true;
    this.seen(shot);
    this.watch(this.watched);
  }

  /**
   * A screen the task took itself (its first look, a step's). A viewer gets the computer's own
   * frames as the screen changes (a browser's include the screenshots it takes); this one only
   * when it is the first.
   */
  seen(shot: Screenshot): void {
    if (!this.watched || !this.shown) this.frames.push(shot);
  }

  /** Ends the view and stores its last frame. */
  async close(): Promise<void> {
    this.stopWatching();
    this.stopFrames?.();
    // A frame still waiting for its turn is the screen the task ended on: it is the one kept.
    const last = this.frames.waiting();
    this.frames.stop();
    if (last) {
      const { record } = this.options;
      record.change({ live_frame: record.recorder.showLiveFrame(record.current, last) });
    }
    await this.keep(true);
  }

  private watch(watched: boolean): void {
    this.watched = watched;
    if (!watched) {
      this.stopFrames?.();
      this.stopFrames = null;
    } else if (this.options.fps > 0 && this.begun) {
      this.stopFrames ??= this.options.computer.onLiveFrame((frame) => this.frames.push(frame));
      // The viewer sees the newest screen at once, not once the screen next changes.
      this.frames.again();
    }
  }

  private async deliver(frame: Screenshot): Promise<void> {
    const { record } = this.options;
    const ref = record.recorder.showLiveFrame(record.current, frame);
    this.shown = true;
    // In memory only: the task's row is written with its next change, not for every frame.
    record.change({ live_frame: ref });
    if (Date.now() - this.keptAt >= KEEP_EVERY_MS) void this.keep(false);
    if (this.watched) await this.options.publish(ref);
  }

  /** One write at a time: an older frame's write never lands after a newer one's. */
  private keep(done: boolean): Promise<void> {
    const { record, log } = this.options;
    this.keptAt = Date.now();
    this.keeping = this.keeping
      .then(() => record.recorder.keepLiveFrame(record.current, done))
      .catch((error: unknown) => log.warn({ err: error }, "could not store the live frame"));
    return this.keeping;
  }
}

/**
 * Throttles frames: at most `fps` a second reach `deliver`, always the newest one, and never two
 * deliveries at once (a slow consumer drops intermediate frames instead of queueing them).
 */
export function throttleFrames(fps: number, deliver: (frame: Screenshot) => Promise<void>) {
  const interval = fps > 0 ? 1000 / fps : Infinity;
  let pending: Screenshot | null = null;
  /** The frame last taken for delivery. */
  let taken: Screenshot | null = null;
  let last = 0;
  let timer: NodeJS.Timeout | null = null;
  let busy = false;
  let stopped = false;

  const flush = async () => {
    timer = null;
    if (stopped || busy || !pending) return;
    const frame = pending;
    taken = frame;
    pending = null;
    busy = true;
    last = Date.now();
    try {
      await deliver(frame);
    } finally {
      busy = false;
      if (pending) schedule();
    }
  };
  const schedule = () => {
    if (timer || stopped || interval === Infinity) return;
    timer = setTimeout(() => void flush(), Math.max(0, last + interval - Date.now()));
  };
  const push = (frame: Screenshot) => {
    pending = frame;
    if (!busy) schedule();
  };

  return {
    push,
    /** The frame waiting for its turn, if any. */
    waiting(): Screenshot | null {
      return pending;
    },
    /** Delivers the newest frame once more, unless a newer one is already waiting. */
    again() {
      if (!pending && taken) push(taken);
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
