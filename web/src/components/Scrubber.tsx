// The progress scrubber under the screen: one node per step and a final live node. Clicking,
// dragging and the arrow keys (Home/End, PageUp/PageDown) move it; the numbers under the nodes
// thin out when the nodes get close. Presentational: the run card owns the value.
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from "react";
import { t } from "../i18n.ts";
import { fractionOfValue, valueAtFraction, valueForKey } from "../state/run-view.ts";
import { labelledSteps, labelWidth } from "../state/scrubber-labels.ts";

export interface ScrubberProps {
  stepCount: number;
  /** 0…stepCount-1 for a step, stepCount for the live node. */
  value: number;
  onChange: (value: number) => void;
  liveLabel: string;
  valueText: string;
}

export function Scrubber({ stepCount, value, onChange, liveLabel, valueText }: ScrubberProps) {
  const track = useRef<HTMLDivElement>(null);
  const dragging = useRef(false);
  const [trackWidth, setTrackWidth] = useState(0);
  useEffect(() => {
    const element = track.current;
    // Without layout (a test's DOM) there is nothing to measure.
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => setTrackWidth(element.getBoundingClientRect().width));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const valueAt = (clientX: number): number => {
    const rect = track.current?.getBoundingClientRect();
    if (!rect || rect.width === 0) return value;
    return valueAtFraction((clientX - rect.left) / rect.width, stepCount);
  };
  const move = (next: number) => {
    if (next !== value) onChange(next);
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    event.currentTarget.focus();
    dragging.current = true;
    move(valueAt(event.clientX));
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (dragging.current) move(valueAt(event.clientX));
  };
  const endDrag = () => {
    dragging.current = false;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next = valueForKey(event.key, value, stepCount);
    if (next === null) return;
    event.preventDefault();
    move(next);
  };

  const nodes = Array.from({ length: stepCount + 1 }, (_, index) => index);
  const at = (index: number) => `${fractionOfValue(index, stepCount) * 100}%`;
  const labelled = labelledSteps({ stepCount, trackWidth, selected: value, liveWidth: labelWidth(liveLabel) });

  return (
    <div className="px-1 pt-2">
      <div
        role="slider"
        tabIndex={0}
        aria-label={t.scrubber}
        aria-orientation="horizontal"
        aria-valuemin={0}
        aria-valuemax={stepCount}
        aria-valuenow={value}
        aria-valuetext={valueText}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        onKeyDown={onKeyDown}
        className="relative h-8 cursor-pointer touch-none rounded-md select-none focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
      >
        <div ref={track} data-testid="scrubber-track" className="absolute inset-x-4 top-1/2">
          <div className="absolute inset-x-0 h-1 -translate-y-1/2 rounded-full bg-zinc-200" />
          <div className="absolute left-0 h-1 -translate-y-1/2 rounded-full bg-indigo-300" style={{ width: at(value) }} />
          {nodes.map((index) => (
            <span
              key={index}
              aria-hidden="true"
              className={`absolute size-2.5 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 ${
                index === stepCount ? "border-emerald-500 bg-white" : index <= value ? "border-indigo-500 bg-indigo-500" : "border-zinc-400 bg-white"
              }`}
              style={{ left: at(index) }}
            />
          ))}
          <span
            data-testid="scrubber-thumb"
            aria-hidden="true"
            className="absolute size-4 -translate-x-1/2 -translate-y-1/2 rounded-full bg-indigo-600 shadow ring-4 ring-indigo-600/20"
            style={{ left: at(value) }}
          />
        </div>
      </div>
      <div aria-hidden="true" className="relative mx-4 h-4 text-[11px] text-zinc-500">
        {labelled.map((index) => (
          <span
            key={index}
            data-testid="scrubber-label"
            className={`absolute -translate-x-1/2 whitespace-nowrap ${index === value ? "font-semibold text-indigo-700" : ""}`}
            style={{ left: at(index) }}
          >
            {index + 1}
          </span>
        ))}
        {/* The live label ends under its node rather than running past the track. */}
        <span
          data-testid="scrubber-label"
          className={`absolute right-0 translate-x-1.5 whitespace-nowrap ${value === stepCount ? "font-semibold text-indigo-700" : ""}`}
        >
          {liveLabel}
        </span>
      </div>
    </div>
  );
}
