// Page preparation before the model looks at a page (seed 004 §4.5): wait for load, then take the
// screenshot and the reader text, retrying each once; one of them missing is a warning, both an error.
import { delay, raceAbort } from "../core/abort.ts";
import { AppError } from "../core/errors.ts";

export type PrepItem = "screenshot" | "readability";

export interface PreparedPage<T, R> {
  screenshot?: T;
  readability?: R;
  /** One sentence per thing that went wrong, for the model and the person. */
  warnings: string[];
  missing: PrepItem[];
}

/**
 * Runs `loaded`, then `screenshot` and `readability` side by side.
 *
 * The seed asks for "at most one retry each, backoff 500 ms → 1500 ms". We read that as: an item
 * that fails is tried again `retryAfterMs` later, and that retry must settle within `retryWithinMs`
 * of the failure, or the item is missing. Both items retry in parallel, so retries add at most
 * `retryWithinMs` to a preparation. Aborting `signal` (Stop) rejects at once with its reason.
 * @example const prepared = await preparePage({ loaded: () => waitForLoaded(page, 10_000), screenshot, readability }, signal);
 */
export async function preparePage<T, R>(
  steps: { loaded: () => Promise<{ loaded: boolean }>; screenshot: () => Promise<T>; readability: () => Promise<R> },
  signal: AbortSignal,
  [retryAfterMs, retryWithinMs]: readonly [number, number] = [500, 1500],
): Promise<PreparedPage<T, R>> {
  const warnings: string[] = [];
  const started = Date.now();
  try {
    const { loaded } = await raceAbort(steps.loaded(), signal);
    if (!loaded) warnings.push(`the page had not finished loading after ${Date.now() - started} ms`);
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    // The screenshot and the text decide whether the page is usable; a failed wait only warns.
    warnings.push(`could not wait for the page to load: ${messageOf(error)}`);
  }

  const retry = { retryAfterMs, retryWithinMs };
  const [screenshot, readability] = await Promise.all([
    attempt("the screenshot", steps.screenshot, signal, retry),
    attempt("the text extraction", steps.readability, signal, retry),
  ]);
  if ("error" in screenshot && "error" in readability) {
    throw new AppError("PAGE_PREP_FAILED", `Could not prepare the page: ${screenshot.error}; ${readability.error}.`, { retryable: true });
  }
  const prepared: PreparedPage<T, R> = { warnings, missing: [] };
  if ("value" in screenshot) {
    prepared.screenshot = screenshot.value;
  } else {
    prepared.missing.push("screenshot");
    warnings.push(screenshot.error);
  }
  if ("value" in readability) {
    prepared.readability = readability.value;
  } else {
    prepared.missing.push("readability");
    warnings.push(readability.error);
  }
  return prepared;
}

async function attempt<V>(
  what: string,
  run: () => Promise<V>,
  signal: AbortSignal,
  { retryAfterMs, retryWithinMs }: { retryAfterMs: number; retryWithinMs: number },
): Promise<{ value: V } | { error: string }> {
  let first: unknown;
  try {
    return { value: await raceAbort(run(), signal) };
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    first = error;
  }
  await delay(retryAfterMs, signal);
  const deadline = AbortSignal.timeout(Math.max(0, retryWithinMs - retryAfterMs));
  try {
    return { value: await raceAbort(run(), AbortSignal.any([signal, deadline])) };
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    const retried = deadline.aborted ? `its retry did not finish within ${retryWithinMs} ms` : `its retry failed too (${messageOf(error)})`;
    return { error: `${what} failed (${messageOf(first)}) and ${retried}` };
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
