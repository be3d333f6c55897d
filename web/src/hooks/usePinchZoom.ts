// Owns the gestures that zoom the focus view's screen: two fingers pinch and pan, one finger pans
// an image already zoomed (unless the screen takes the person's input), Ctrl+wheel (a trackpad's
// pinch) zooms at the pointer. The element it returns a ref for is the zoom's box.
import { useEffect, useRef, useState } from "react";
import { NO_ZOOM, panBy, zoomAt, type Zoom } from "../state/zoom.ts";

export interface PinchZoom {
  box: React.RefObject<HTMLDivElement | null>;
  zoom: Zoom;
  /** Zooms by a factor (> 1 in, < 1 out) about a point given as fractions of the image, else its centre. */
  zoomBy: (factor: number, about?: { x: number; y: number } | null) => void;
  reset: () => void;
}

/** `enabled`: gestures are listened to; `panWithOneFinger`: off while taps are the person's input. */
export function usePinchZoom(enabled: boolean, panWithOneFinger: boolean): PinchZoom {
  const box = useRef<HTMLDivElement>(null);
  const [zoom, setZoom] = useState<Zoom>(NO_ZOOM);
  const pan = useRef(panWithOneFinger);
  pan.current = panWithOneFinger;

  useEffect(() => {
    const element = box.current;
    if (!enabled || !element) return;
    const pointers = new Map<number, { x: number; y: number }>();
    const local = (event: PointerEvent) => {
      const rect = element.getBoundingClientRect();
      return { x: event.clientX - rect.left, y: event.clientY - rect.top, width: rect.width, height: rect.height };
    };
    const centre = () => {
      const [a, b] = [...pointers.values()];
      return a && b ? { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, d: Math.hypot(a.x - b.x, a.y - b.y) } : null;
    };
    const down = (event: PointerEvent) => {
      if (event.pointerType === "mouse") return;
      pointers.set(event.pointerId, local(event));
    };
    const move = (event: PointerEvent) => {
      const last = pointers.get(event.pointerId);
      if (!last) return;
      const before = centre();
      const now = local(event);
      pointers.set(event.pointerId, now);
      const after = centre();
      if (before && after && before.d > 0) {
        setZoom((z) => panBy(zoomAt(z, after.d / before.d, after.x, after.y, now.width, now.height), after.x - before.x, after.y - before.y, now.width, now.height));
      } else if (pointers.size === 1 && pan.current) {
        setZoom((z) => (z.scale > 1 ? panBy(z, now.x - last.x, now.y - last.y, now.width, now.height) : z));
      }
    };
    const up = (event: PointerEvent) => pointers.delete(event.pointerId);
    const wheel = (event: WheelEvent) => {
      if (!event.ctrlKey) return;
      event.preventDefault();
      const rect = element.getBoundingClientRect();
      setZoom((z) => zoomAt(z, Math.exp(-event.deltaY / 200), event.clientX - rect.left, event.clientY - rect.top, rect.width, rect.height));
    };
    element.addEventListener("pointerdown", down);
    element.addEventListener("pointermove", move);
    element.addEventListener("pointerup", up);
    element.addEventListener("pointercancel", up);
    element.addEventListener("wheel", wheel, { passive: false });
    return () => {
      element.removeEventListener("pointerdown", down);
      element.removeEventListener("pointermove", move);
      element.removeEventListener("pointerup", up);
      element.removeEventListener("pointercancel", up);
      element.removeEventListener("wheel", wheel);
    };
  }, [enabled]);

  const zoomBy = (factor: number, about?: { x: number; y: number } | null) => {
    const element = box.current;
    if (!element) return;
    const { width, height } = element.getBoundingClientRect();
    // The point where the image point sits now, so that it stays put.
    setZoom((z) => zoomAt(z, factor, about ? z.x + about.x * width * z.scale : width / 2, about ? z.y + about.y * height * z.scale : height / 2, width, height));
  };
  return { box, zoom, zoomBy, reset: () => setZoom(NO_ZOOM) };
}
