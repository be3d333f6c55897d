// The scrolling chat area: it sticks to the bottom while the person is there, lets them scroll
// away freely, and offers a button back to the latest message.
import { useEffect, useRef, useState, type ReactNode } from "react";
import { t } from "../i18n.ts";

/** Closer than this to the end counts as being at the bottom. */
const BOTTOM_SLACK_PX = 48;

export function ChatContainer({ children }: { children: ReactNode }) {
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const sticking = useRef(true);
  const [atBottom, setAtBottom] = useState(true);

  const toBottom = () => {
    const element = scroller.current;
    if (element) element.scrollTop = element.scrollHeight;
  };

  useEffect(() => {
    const element = content.current;
    if (!element) return;
    const observer = new ResizeObserver(() => {
      if (sticking.current) toBottom();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    const near = element.scrollHeight - element.scrollTop - element.clientHeight < BOTTOM_SLACK_PX;
    sticking.current = near;
    setAtBottom(near);
  };

  return (
    <div className="relative min-h-0 flex-1">
      <div ref={scroller} onScroll={onScroll} data-testid="chat-scroller" className="h-full overflow-y-auto">
        <div ref={content}>{children}</div>
      </div>
      {!atBottom && (
        <button
          type="button"
          aria-label={t.scrollToBottom}
          onClick={() => {
            sticking.current = true;
            setAtBottom(true);
            toBottom();
          }}
          className="absolute right-4 bottom-3 flex size-9 items-center justify-center rounded-full border border-zinc-200 bg-white text-zinc-700 shadow-md hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-indigo-500"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5">
            <path d="M10 4v12m0 0l-5-5m5 5l5-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </button>
      )}
    </div>
  );
}
