// The newest live frame of each task that shows one, held in memory: a frame shown costs no disk
// write and no database row, and a viewer's request for it is answered from here. Each frame gets
// the next version of its task, which its URL carries, so a browser never shows a cached older one.
// A version is the time the frame was shown (in milliseconds, one more when two come within one),
// so a task's frames after a restart are newer than those a browser kept from before it.
import type { Screenshot } from "../perception/screenshot.ts";

/** The id every live frame of a task has: the image behind it is replaced, its version changes. */
export function liveFrameId(taskId: string): string {
  return `live_${taskId}`;
}

export interface LiveFrame {
  shot: Screenshot;
  version: number;
}

export class LiveFrames {
  private readonly newest = new Map<string, LiveFrame>();
  /** Versions outlive a task's frame in memory: two frames of a task never share one. */
  private readonly versions = new Map<string, number>();

  /** Makes `shot` the task's live frame and returns its version. */
  show(taskId: string, shot: Screenshot): number {
    const version = Math.max((this.versions.get(taskId) ?? 0) + 1, Date.now());
    this.versions.set(taskId, version);
    this.newest.set(liveFrameId(taskId), { shot, version });
    return version;
  }

  /** The frame with this id, while its task still shows one. */
  get(id: string): LiveFrame | undefined {
    return this.newest.get(id);
  }

  /** The task shows no more frames: the stored one stands for it from now on. */
  forget(taskId: string): void {
    this.newest.delete(liveFrameId(taskId));
  }
}
