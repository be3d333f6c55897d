// Scroll recovery (seed 002 §2.5): a scroll that moved nothing is tried once the other way — the
// model may have misjudged where the content is — and then what happened is reported, whichever way.
import type { ScreenAction } from "../perception/resolve.ts";

type Scroll = Extract<ScreenAction, { type: "scroll" }>;

/** The same scroll, the other way, at the same point. */
export function reversed(scroll: Scroll): Scroll {
  return { ...scroll, args: { ...scroll.args, scroll_x: -scroll.args.scroll_x, scroll_y: -scroll.args.scroll_y } };
}

/** What the step says of a scroll that moved nothing, once the other way was tried: it moved (`moved`), or not either. */
export function scrollNote(scroll: Scroll, moved: boolean): string {
  const way = direction(scroll);
  const back = direction(reversed(scroll));
  return moved
    ? `nothing moved scrolling ${way} (the end was reached), so it scrolled ${back} instead`
    : `nothing moved scrolling ${way}, nor ${back}: this place does not scroll`;
}

/** `down`, `up and left`…: the way the larger part of a scroll goes first. */
function direction({ args }: Scroll): string {
  const vertical = args.scroll_y === 0 ? null : args.scroll_y > 0 ? "down" : "up";
  const horizontal = args.scroll_x === 0 ? null : args.scroll_x > 0 ? "right" : "left";
  const ways = Math.abs(args.scroll_x) > Math.abs(args.scroll_y) ? [horizontal, vertical] : [vertical, horizontal];
  return ways.filter(Boolean).join(" and ") || "nowhere";
}
