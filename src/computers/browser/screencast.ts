// The live view of a browser page: Chromium's screencast (`Page.startScreencast`) while anyone
// listens. A capture of the screen pauses it: the stream's frames would be encoded beside the
// capture, on the same cores, and made it up to a third slower on a busy machine. A screenshot is
// shown as the next frame (`show`), and the stream starts again once no capture has come for
// RESUME_AFTER_MS: a task whose steps follow faster than that is shown by its own screenshots.
import type { CDPSession } from "playwright-core";
import type { Size } from "../../perception/coordinates.ts";
import { imageSize } from "../../perception/image-size.ts";
import type { LiveFrameListener, Screenshot } from "../computer.ts";

/** A tenth of a second: the live view's default frame interval (LIVE_FPS 10). */
const RESUME_AFTER_MS = 100;
const QUALITY = 60;

export class Screencast {
  private readonly listeners = new Set<LiveFrameListener>();
  private session: CDPSession | null = null;
  /** Whether Chromium was asked to stream and not asked to stop since: frames come only then. */
  private streaming = false;
  private capturing = 0;
  private resumeTimer: NodeJS.Timeout | null = null;
  private closed = false;

  /** `screen`: the size of a frame, in device pixels. */
  constructor(private readonly screen: () => Size) {}

  /** Streams from `session`'s page from now on; frames of the session before are dropped. */
  async follow(session: CDPSession): Promise<void> {
    this.session = session;
    this.streaming = false;
    session.on("Page.screencastFrame", (frame) => {
      void session.send("Page.screencastFrameAck", { sessionId: frame.sessionId }).catch(() => undefined);
      if (session !== this.session || !this.streaming) return;
      const data = Buffer.from(frame.data, "base64");
      this.show({ data, mimeType: "image/jpeg", ...imageSize(data) });
    });
    if (this.listeners.size > 0 && this.capturing === 0 && !this.resumeTimer) await this.start();
  }

  listen(listener: LiveFrameListener): () => void {
    this.listeners.add(listener);
    if (this.listeners.size === 1 && this.capturing === 0 && !this.resumeTimer) void this.start();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  /** Runs a capture with the stream paused. */
  async pausedFor<T>(capture: () => Promise<T>): Promise<T> {
    if (this.capturing++ === 0) {
      this.cancelResume();
      this.stop();
    }
    try {
      return await capture();
    } finally {
      if (--this.capturing === 0 && this.listeners.size > 0 && !this.closed) {
        this.resumeTimer = setTimeout(() => {
          this.resumeTimer = null;
          if (this.capturing === 0 && this.listeners.size > 0) void this.start();
        }, RESUME_AFTER_MS).unref();
      }
    }
  }

  /** Stops for good; `tell`: asks Chromium to stop too (a browser that stays open). */
  async close(tell: boolean): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    this.cancelResume();
    const was = this.streaming;
    this.streaming = false;
    if (tell && was) await this.session?.send("Page.stopScreencast").catch(() => undefined);
  }

  /** Gives the listeners a frame taken otherwise (a capture). */
  show(frame: Screenshot): void {
    for (const listener of this.listeners) listener(frame);
  }

  private async start(): Promise<void> {
    if (this.closed || !this.session) return;
    this.streaming = true;
    const { width, height } = this.screen();
    await this.session.send("Page.startScreencast", { format: "jpeg", quality: QUALITY, maxWidth: width, maxHeight: height }).catch(() => undefined);
  }

  private stop(): void {
    if (!this.streaming) return;
    this.streaming = false;
    void this.session?.send("Page.stopScreencast").catch(() => undefined);
  }

  private cancelResume(): void {
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
    this.resumeTimer = null;
  }
}
