// Owns where the stage is: the box of the chat's stage (beside the chat on a wide window while a
// task runs), as CSS variables on the chat. The running card's screen stays in the card's markup,
// for focus order and screen readers, and is placed over the stage by them.
import { useLayoutEffect, useState, type CSSProperties } from "react";

export function useStageBox(): { slot: (element: HTMLDivElement | null) => void; style: CSSProperties } {
  const [element, slot] = useState<HTMLDivElement | null>(null);
  const [box, setBox] = useState<DOMRect | null>(null);
  useLayoutEffect(() => {
    if (!element) {
      setBox(null);
      return;
    }
    const measure = () => setBox(element.getBoundingClientRect());
    measure();
    // A banner above the chat moves the stage down without resizing the window.
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    window.addEventListener("resize", measure);
    return () => {
      observer.disconnect();
      window.removeEventListener("resize", measure);
    };
  }, [element]);
  const style = box ? ({ "--stage-x": `${box.left}px`, "--stage-y": `${box.top}px`, "--stage-w": `${box.width}px`, "--stage-h": `${box.height}px` } as CSSProperties) : {};
  return { slot, style };
}
