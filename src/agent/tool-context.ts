// Context compression for the tool agent (seed 001 §5): of the tool outputs the model has seen,
// only the latest ARIA tree and the latest two screenshots stay; older ones become placeholders,
// and any text is cut at 10,000 characters. The full conversation is kept; each request gets
// a compressed copy, so what stays is always the newest.
import type { ChatTurn } from "../models/chat/chat-model.ts";

export interface CompressionLimits {
  ariaTrees: number;
  images: number;
  textChars: number;
}

export const SEED_LIMITS: CompressionLimits = { ariaTrees: 1, images: 2, textChars: 10_000 };

export function compressContext(turns: readonly ChatTurn[], limits: CompressionLimits = SEED_LIMITS): ChatTurn[] {
  const trees = turns.flatMap((turn, i) => (turn.role === "tool" && turn.name === "ariaTree" ? [i] : []));
  const images = turns.flatMap((turn, i) => (turn.role === "tool" && turn.image ? [i] : []));
  const staleTrees = new Set(trees.slice(0, Math.max(0, trees.length - limits.ariaTrees)));
  const staleImages = new Set(images.slice(0, Math.max(0, images.length - limits.images)));
  return turns.map((turn, i) => {
    if (turn.role !== "tool") return turn.text.length > limits.textChars ? { ...turn, text: cut(turn.text, limits.textChars) } : turn;
    let { content } = turn;
    if (staleTrees.has(i)) content = JSON.stringify({ omitted: "an older ARIA tree; the page may have changed since — call ariaTree for the current one" });
    if (staleImages.has(i)) content = `${content}\n[an older screenshot, no longer shown]`;
    const { image: _, ...text } = turn;
    return { ...(staleImages.has(i) ? text : turn), content: cut(content, limits.textChars) };
  });
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters cut]`;
}
