// Sends the person's input on the live screen one request at a time, in the order it was made;
// what piles up while a request is out goes together (nextBatch). A failed request is reported
// and the rest still goes.
import { useCallback, useRef } from "react";
import type { PersonInputBody } from "../protocol.ts";
import { nextBatch } from "../state/person-input.ts";

export function useInputQueue(send: (input: PersonInputBody) => Promise<void>, onError: (error: unknown) => void): (input: PersonInputBody) => void {
  const queue = useRef<PersonInputBody[]>([]);
  const sending = useRef(false);
  const latest = useRef({ send, onError });
  latest.current = { send, onError };

  const drain = useCallback(async () => {
    if (sending.current) return;
    sending.current = true;
    try {
      for (let batch = nextBatch(queue.current); batch; batch = nextBatch(queue.current)) {
        queue.current = queue.current.slice(batch.taken);
        await latest.current.send(batch.input).catch((error: unknown) => latest.current.onError(error));
      }
    } finally {
      sending.current = false;
    }
  }, []);

  return useCallback(
    (input: PersonInputBody) => {
      queue.current.push(input);
      void drain();
    },
    [drain],
  );
}
