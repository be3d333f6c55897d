// The scrolling chat area: it sticks to the bottom while the person is there, so new steps and
// replies stay in view; once they scroll up it leaves them where they are, and offers a way back —
// a "New activity" pill when something arrived below them, else a plain button.
import { useEffect, useRef, useState, type ReactNode } from "react";
import { t } from "../i18n.ts";

/** Scrolling down to closer than this to the end counts as being back at the bottom. */
const BOTTOM_SLACK_PX = 48;
/** The very end, give or take a zoomed pixel's rounding. */
const END_PX = 2;

export function ChatContainer({ children }: { children: ReactNode }) {
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const sticking = useRef(true);
  const lastTop = useRef(0);
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

  // Only the chat's own scroll counts: a list or a dialog inside it scrolls itself, and the
  // screen under takeover keeps its wheel. Moving up lets go of the bottom, even by less than the
  // slack (the chat would pull a small turn of the wheel back down as it grows); content growing
  // below never moves the chat up, and content shrinking leaves it at the very end, which sticks.
  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    const top = element.scrollTop;
    const distance = element.scrollHeight - top - element.clientHeight;
    const movedUp = top < lastTop.current - 1;
    if (distance < END_PX || (!movedUp && distance < BOTTOM_SLACK_PX)) {
      sticking.current = true;
      setAway(false);
      setUnseen(false);
    } else if (movedUp) {
      sticking.current = false;
      setAway(true);
    }
    lastTop.current = top;
  };

  const backToBottom = () => {
    sticking.current = true;
    setAway(false);
    setUnseen(false);
    toBottom();
  };

  return (
    <div className="relative min-h-0 flex-1">
      <div ref={scroller} onScroll={onScroll} data-testid="chat-scroller" className="h-full overflow-y-auto">
        <div ref={content}>{children}</div>
      </div>
      {away && unseen && (
        <button
          type="button"
          onClick={backToBottom}
          className="absolute bottom-3 left-1/2 z-20 flex -translate-x-1/2 items-center gap-1.5 rounded-full bg-indigo-600 py-1.5 pr-4 pl-3 text-sm font-medium text-white shadow-lg hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
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
          className="absolute right-4 bottom-3 z-20 flex size-9 items-center justify-center rounded-full border border-zinc-200 bg-white text-zinc-700 shadow-md hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-indigo-500"
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
