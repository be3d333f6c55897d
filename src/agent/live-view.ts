// Throttles the live view: at most `fps` frames a second reach `deliver`, always the newest one,
// and never two deliveries at once (a slow disk drops intermediate frames instead of queueing).
import type { Screenshot } from "../computers/computer.ts";

export function throttleFrames(fps: number, deliver: (frame: Screenshot) => Promise<void>) {
  const interval = fps > 0 ? 1000 / fps : Infinity;
  let pending: Screenshot | null = null;
  let last = 0;
  let timer: NodeJS.Timeout | null = null;
  let busy = false;
  let stopped = false;

  const flush = async () => {
    timer = null;
    if (stopped || busy || !pending) return;
    const frame = pending;
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

  return {
    push(frame: Screenshot) {
      pending = frame;
      if (!busy) schedule();
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
