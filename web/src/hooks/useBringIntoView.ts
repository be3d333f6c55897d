// Owns one rule of the chat: a card that starts needing the person (a request to act, an approval,
// the screen handed to them) is brought into view wherever they had scrolled, and so is the run
// that goes on after they acted.
import { useEffect, useRef, type RefObject } from "react";
import type { TaskStatus } from "../protocol.ts";

export function useBringIntoView(element: RefObject<HTMLElement | null>, status: TaskStatus, approvalId: string | null): void {
  const seen = useRef({ status, approvalId });
  useEffect(() => {
    const was = seen.current;
    seen.current = { status, approvalId };
    const asks = status === "awaiting_user" || status === "takeover";
    // Answered, it runs, or (after a restart) waits for its place first.
    const resumed = was.status === "awaiting_user" && (status === "running" || status === "queued");
    if ((was.status === status && was.approvalId === approvalId) || (!asks && !resumed)) return;
    const card = element.current;
    if (!card?.scrollIntoView) return;
    // The run that goes on shows its header first: its progress grows below it.
    if (resumed) {
      card.scrollIntoView({ block: "start" });
      return;
    }
    // Its end holds what the person answers with (I've done it, Allow, Resume), its start what
    // they are asked: a card taller than the chat shows its start, the question before the buttons.
    card.scrollIntoView({ block: "end" });
    const scroller = scrollerOf(card);
    if (scroller && card.getBoundingClientRect().top < scroller.getBoundingClientRect().top) card.scrollIntoView({ block: "start" });
  }, [element, status, approvalId]);
}

function scrollerOf(element: HTMLElement): HTMLElement | null {
  for (let parent = element.parentElement; parent; parent = parent.parentElement) {
    if (parent.scrollHeight > parent.clientHeight && getComputedStyle(parent).overflowY !== "visible") return parent;
  }
  return null;
}
