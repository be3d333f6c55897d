// Owns the coalescing of reloads: a burst of "something changed" signals (say, a replay of
// many events) becomes one request in flight and at most one more after it.
import { useCallback, useRef } from "react";

/** Wraps a loader so that overlapping calls share one run and a call during it runs once more after. */
export function useCoalesced(load: () => Promise<void>): () => Promise<void> {
  const state = useRef<{ running: Promise<void> | null; again: boolean }>({ running: null, again: false });
  return useCallback(() => {
    const current = state.current;
    if (current.running) {
      current.again = true;
      return current.running;
    }
    const run = async (): Promise<void> => {
      try {
        do {
          current.again = false;
          await load();
        } while (current.again);
      } finally {
        current.running = null;
      }
    };
    current.running = run();
    return current.running;
  }, [load]);
}
