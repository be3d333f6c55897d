// Context compression for the tool agent (seed 001 §5): of the tool outputs the model has seen,
// only the latest ARIA tree or read_page (with the views it is the changes to) and the latest two screenshots
// stay; older ones become placeholders,
// and any text is cut at 10,000 characters — at a line break where there is one, and never a page
// view, which has a budget of its own (perception/page-view). The full conversation is kept; each
// request gets a compressed copy, so what stays is always the newest.
import { cutNoted } from "../core/cut-text.ts";
import type { ChatTurn } from "../models/chat/chat-model.ts";
import { DELTA_MARK } from "../perception/page-view/delta.ts";

export interface CompressionLimits {
  ariaTrees: number;
  images: number;
  textChars: number;
}

export const SEED_LIMITS: CompressionLimits = { ariaTrees: 1, images: 2, textChars: 10_000 };

export function compressContext(turns: readonly ChatTurn[], limits: CompressionLimits = SEED_LIMITS): ChatTurn[] {
  const trees = turns.flatMap((turn, i) => (isTree(turn) ? [i] : []));
  const images = turns.flatMap((turn, i) => (turn.role === "tool" && turn.image ? [i] : []));
  let stale = Math.max(0, trees.length - limits.ariaTrees);
  // A view sent as the changes to the one before it keeps that one too.
  while (stale > 0 && isDelta(turns[trees[stale]!]!)) stale--;
  const staleTrees = new Set(trees.slice(0, stale));
  const staleImages = new Set(images.slice(0, Math.max(0, images.length - limits.images)));
  return turns.map((turn, i) => {
    if (turn.role !== "tool") return turn.text.length > limits.textChars ? { ...turn, text: cutNoted(turn.text, limits.textChars) } : turn;
    let { content } = turn;
    if (staleTrees.has(i)) {
      content = turn.toolset
        ? "[An older read of the page, no longer shown; the page may have changed since: call read_page for the current one.]"
        : JSON.stringify({ omitted: "an older ARIA tree; the page may have changed since — call ariaTree for the current one" });
    }
    if (staleImages.has(i)) content = [content, "[an older screenshot, no longer shown]"].filter(Boolean).join("\n");
    const { image: _, ...text } = turn;
    return { ...(staleImages.has(i) ? text : turn), content: isTree(turn) && !staleTrees.has(i) ? content : cutNoted(content, limits.textChars) };
  });
}

/** A page view the model read: ariaTree's, or the browser toolset's read_page, that did not fail. */
function isTree(turn: ChatTurn): boolean {
  if (turn.role !== "tool") return false;
  return turn.toolset ? turn.name === "read_page" && !turn.toolset.isError : turn.name === "ariaTree" && !turn.content.startsWith('{"ok":false');
}

/** A tool turn's content is its JSON line, then the view: a delta's second line is its mark. */
function isDelta(turn: ChatTurn): boolean {
  return turn.role === "tool" && (turn.content.split("\n", 3)[2]?.startsWith(DELTA_MARK) ?? false);
}
