// Tokens as models count them: OpenAI's o200k encoding (GPT-4o and later), which the page view's
// budget is set in. The view needs counts, not token ids, so this is a byte-pair counter over the
// encoding's published ranks (js-tiktoken's tables) rather than a whole encoder: it loads in about
// a third of the time and keeps a fifth of the memory (27 MB). Text that spells a special token
// (`<|endoftext|>`) is counted as plain text: a page's text is the model's input, not its control.
// The tables load once per process, holding the event loop meanwhile (a second on a busy machine):
// the server loads them as it starts when tasks use the tool agent on a browser by default, and a
// task that will read pages loads them (if not yet) before its first look.

interface Encoding {
  /** Splits text into the pieces that are encoded apart (words, numbers, runs of spaces, …). */
  pieces: RegExp;
  /** The rank of each token, keyed by its bytes in base64. */
  ranks: Map<string, number>;
}

/** Pieces (words, mostly) repeat across lines and pages: the counts of short ones are kept, up to this many. */
const KNOWN_PIECES = 50_000;
const KNOWN_PIECE_LENGTH = 256;
const known = new Map<string, number>();

let loading: Promise<Encoding> | null = null;
let encoding: Encoding | null = null;

/** Starts loading the tables (or returns the load under way). */
export function loadTokenizer(): Promise<Encoding> {
  loading ??= (async () => {
    const { default: o200k } = await import("js-tiktoken/ranks/o200k_base");
    // Each line: a prefix, the rank of its first token, then the tokens in base64, ranked in turn.
    const ranks = new Map<string, number>();
    for (const line of o200k.bpe_ranks.split("\n")) {
      const fields = line.split(" ");
      const first = Number(fields[1]);
      for (let i = 2; i < fields.length; i++) ranks.set(fields[i]!, first + i - 2);
    }
    encoding = { pieces: new RegExp(o200k.pat_str, "gu"), ranks };
    return encoding;
  })();
  // A load that failed is tried again by the next view, not kept.
  loading.catch(() => (loading = null));
  return loading;
}

/** A counter of tokens, once the tables are loaded; lines that repeat are counted once. */
export async function tokenCounter(): Promise<(text: string) => number> {
  const { pieces, ranks } = encoding ?? (await loadTokenizer());
  const seen = new Map<string, number>();
  return (text) => {
    let n = seen.get(text);
    if (n === undefined) {
      n = 0;
      for (const [piece] of text.matchAll(pieces)) {
        let tokens = known.get(piece);
        if (tokens === undefined) {
          tokens = pieceTokens(Buffer.from(piece, "utf8"), ranks);
          if (known.size >= KNOWN_PIECES) known.clear();
          if (piece.length <= KNOWN_PIECE_LENGTH) known.set(piece, tokens);
        }
        n += tokens;
      }
      seen.set(text, n);
    }
    return n;
  };
}

/**
 * A piece longer than this (an unbroken run of letters, which a hostile page may make as long as
 * it likes) is counted in chunks of this many bytes: merging costs the square of a piece's length,
 * and the count is then typically off by a token or two per chunk.
 */
const CHUNK_BYTES = 2048;

/**
 * The tokens of one piece: one if it is a token itself, else as byte-pair encoding makes them —
 * starting from single bytes, the adjacent pair whose union ranks lowest (the first, on a tie)
 * is joined, until no adjacent pair makes a token.
 */
function pieceTokens(bytes: Buffer, ranks: Map<string, number>): number {
  if (bytes.length > CHUNK_BYTES) {
    let n = 0;
    for (let at = 0; at < bytes.length; at += CHUNK_BYTES) n += pieceTokens(bytes.subarray(at, at + CHUNK_BYTES), ranks);
    return n;
  }
  if (ranks.has(bytes.toString("base64"))) return 1;
  // Where each part starts, and the end; and the rank of joining each part with the next.
  const bounds = Array.from({ length: bytes.length + 1 }, (_, i) => i);
  const joined = (i: number) => (i + 2 < bounds.length ? (ranks.get(bytes.subarray(bounds[i], bounds[i + 2]).toString("base64")) ?? Infinity) : Infinity);
  const pairs = bounds.map((_, i) => joined(i));
  for (;;) {
    let join = -1;
    let lowest = Infinity;
    for (let i = 0; i < pairs.length; i++) {
      if (pairs[i]! < lowest) {
        lowest = pairs[i]!;
        join = i;
      }
    }
    if (join < 0) return bounds.length - 1;
    bounds.splice(join + 1, 1);
    pairs.splice(join + 1, 1);
    pairs[join] = joined(join);
    if (join > 0) pairs[join - 1] = joined(join - 1);
  }
}
