// The scrolling chat area: it sticks to the bottom while the person is there, so new steps and
// replies stay in view; once they scroll up it leaves them where they are, and offers a way back —
// a "New activity" pill when something arrived below them, else a plain button.
import { useEffect, useRef, useState, type ReactNode } from "react";
import { t } from "../i18n.ts";

/** Scrolling down to closer than this to the end counts as being back at the bottom. */
const BOTTOM_SLACK_PX = 48;
/** The very end, give or take a zoomed pixel's rounding. */
const END_PX = 2;
/** A scroll this soon after the person's wheel, key, touch or drag is theirs (an eased scroll lasts a few hundred ms). */
const PERSON_SCROLL_MS = 1000;
/** The keys that scroll up; Space and Enter also press the focused button, whose card may come into view. */
const UP_KEYS = new Set(["ArrowUp", "PageUp", "Home"]);

export function ChatContainer({ children }: { children: ReactNode }) {
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const sticking = useRef(true);
  const lastTop = useRef(0);
  /** When the person last turned the wheel, pressed a key, touched or dragged in the chat. */
  const personAt = useRef(-Infinity);
  const [away, setAway] = useState(false);
  const [unseen, setUnseen] = useState(false);

  const toBottom = () => {
    const element = scroller.current;
    if (!element) return;
    element.scrollTop = element.scrollHeight;
    lastTop.current = element.scrollTop;
  };

  useEffect(() => {
    const element = content.current;
    const frame = scroller.current;
    if (!element || !frame) return;
    // The content grows (a step, a reply, a card that needs the person) and the scroller shrinks
    // (the prompt grows, a banner shows): either way the bottom moves.
    const observer = new ResizeObserver(() => {
      if (sticking.current) toBottom();
    });
    observer.observe(element);
    observer.observe(frame);
    // Something new below what the person is reading (a step, a reply, a card's new state; not a
    // live frame, and not what their own clicks changed in view).
    const activity = new MutationObserver((records) => {
      if (sticking.current) return;
      const bottom = frame.getBoundingClientRect().bottom;
      const below = (node: Node) => {
        const element = node instanceof Element ? node : node.parentElement;
        return element !== null && element.isConnected && element.getBoundingClientRect().top >= bottom;
      };
      if (records.some((record) => below(record.target))) setUnseen(true);
    });
    activity.observe(element, { childList: true, subtree: true, characterData: true });
    return () => {
      observer.disconnect();
      activity.disconnect();
    };
  }, []);

  // Only the chat's own scroll counts: a list or a dialog inside it scrolls itself, and the screen
  // under takeover keeps its wheel. Moving up lets go of the bottom when it goes beyond the slack,
  // or when the person just turned the wheel, pressed a key up, touched or dragged the scrollbar:
  // a small turn of the wheel up is theirs to keep as the chat grows. A card brought into view
  // moves the chat too, by its margin, and keeps it following. The very end, or moving down into
  // the slack, sticks.
  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    const top = element.scrollTop;
    const distance = element.scrollHeight - top - element.clientHeight;
    const theirs = performance.now() - personAt.current < PERSON_SCROLL_MS;
    if (distance < END_PX || (top > lastTop.current && distance < BOTTOM_SLACK_PX)) {
      sticking.current = true;
      setAway(false);
      setUnseen(false);
    } else if (top < lastTop.current && (theirs || distance >= BOTTOM_SLACK_PX)) {
      sticking.current = false;
      setAway(true);
    }
    lastTop.current = top;
  };
  const personScrolls = () => {
    personAt.current = performance.now();
  };

  const backToBottom = () => {
    sticking.current = true;
    setAway(false);
    setUnseen(false);
    toBottom();
  };

  return (
    <div className="relative min-h-0 flex-1">
      <div
        ref={scroller}
        onScroll={onScroll}
        onWheel={personScrolls}
        onTouchMove={personScrolls}
        onKeyDown={(event) => UP_KEYS.has(event.key) && personScrolls()}
        // On the scroller itself, not on what it holds: its scrollbar. A click on a card's button
        // (I've done it) brings the card into view, which is no move of the person's.
        onPointerDown={(event) => event.target === event.currentTarget && personScrolls()}
        onPointerMove={(event) => event.buttons !== 0 && event.target === event.currentTarget && personScrolls()}
        data-testid="chat-scroller"
        className="h-full overflow-y-auto"
      >
        <div ref={content}>{children}</div>
      </div>
      {away && unseen && (
        <button
          type="button"
          onClick={backToBottom}
          className="absolute bottom-3 left-1/2 z-20 flex -translate-x-1/2 items-center gap-1.5 rounded-full bg-indigo-600 py-1.5 pr-4 pl-3 text-sm font-medium text-white shadow-lg max-sm:min-h-11 hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
        >
          <DownArrow />
          {t.newActivity}
        </button>
      )}
      {away && !unseen && (
        <button
          type="button"
          aria-label={t.scrollToBottom}
          onClick={backToBottom}
          className="absolute right-4 bottom-3 z-20 flex size-9 max-sm:size-11 items-center justify-center rounded-full border border-zinc-200 bg-white text-zinc-700 shadow-md hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-indigo-500"
        >
          <DownArrow />
        </button>
      )}
    </div>
  );
}

function DownArrow() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5">
      <path d="M10 4v12m0 0l-5-5m5 5l5-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
