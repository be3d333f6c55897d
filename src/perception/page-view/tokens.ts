// Tokens as models count them: OpenAI's o200k encoding (GPT-4o and later), which the page view's
// budget is set in. The encoding's tables load once per process, holding the event loop meanwhile
// (half a second idle, seconds on a busy machine) and taking about 70 MB: the server loads them as
// it starts when tasks use the tool agent by default, and a task that will read pages loads them
// (if not yet) before its first look.
import type { Tiktoken } from "js-tiktoken/lite";

let loading: Promise<Tiktoken> | null = null;
let encoder: Tiktoken | null = null;

/** Starts loading the tables (or returns the load under way). */
export function loadTokenizer(): Promise<Tiktoken> {
  loading ??= (async () => {
    const [{ Tiktoken }, { default: ranks }] = await Promise.all([import("js-tiktoken/lite"), import("js-tiktoken/ranks/o200k_base")]);
    encoder = new Tiktoken(ranks);
    return encoder;
  })();
  // A load that failed is tried again by the next view, not kept.
  loading.catch(() => (loading = null));
  return loading;
}

/** A counter of tokens, once the tables are loaded; lines that repeat are counted once. */
export async function tokenCounter(): Promise<(text: string) => number> {
  const enc = encoder ?? (await loadTokenizer());
  const seen = new Map<string, number>();
  return (text) => {
    let n = seen.get(text);
    if (n === undefined) {
      // A page's text is the model's input, not its control: `<|endoftext|>` there is plain text
      // (the encoder would otherwise refuse it, and a page could break its own view).
      n = enc.encode(text, [], []).length;
      seen.set(text, n);
    }
    return n;
  };
}
