// The progress timeline: one item per step on a vertical line, the selected one highlighted;
// choosing an item selects its step. One tab stop: the arrow keys, Home and End move between
// items (roving tabindex) and select as they go. Presentational: the run card owns the selection.
import { useEffect, useRef, type KeyboardEvent } from "react";
import { describeStep, type ProgressStep } from "../protocol.ts";
import { formatTime, t } from "../i18n.ts";
import { stepWords } from "../state/step-words.ts";

export interface TimelineProps {
  id: string;
  steps: readonly ProgressStep[];
  /** The selected step's index, or null when the live screen is shown. */
  selected: number | null;
  onSelect: (index: number) => void;
  /** In the focus view: as tall as the window beside the screen, under it on a phone. */
  tall?: boolean;
}

export function Timeline({ id, steps, selected, onSelect, tall = false }: TimelineProps) {
  const list = useRef<HTMLOListElement>(null);

  // Keep the selected item visible inside the list without scrolling the page.
  useEffect(() => {
    const container = list.current;
    const item = selected === null ? null : container?.querySelector<HTMLElement>(`[data-index="${selected}"]`);
    if (!container || !item) return;
    if (item.offsetTop < container.scrollTop) container.scrollTop = item.offsetTop;
    else if (item.offsetTop + item.offsetHeight > container.scrollTop + container.clientHeight) {
      container.scrollTop = item.offsetTop + item.offsetHeight - container.clientHeight;
    }
  }, [selected]);

  // The item that takes Tab: the selected step, or the latest while the live screen is shown.
  const current = selected ?? steps.length - 1;
  const onKeyDown = (event: KeyboardEvent<HTMLOListElement>) => {
    const next = indexForKey(event.key, current, steps.length);
    if (next === null) return;
    event.preventDefault();
    onSelect(next);
    list.current?.querySelector<HTMLElement>(`[data-index="${next}"] button`)?.focus();
  };

  return (
    <>
      <span id={`${id}-hint`} className="sr-only">
        {t.timelineHint}
      </span>
      <ol ref={list} id={id} aria-label={t.progress} aria-describedby={`${id}-hint`} onKeyDown={onKeyDown} className={`relative overflow-y-auto px-1 py-1 ${tall ? "order-last max-h-none lg:order-none lg:max-h-[calc(100dvh-6rem)]" : "max-h-72 lg:max-h-[28rem]"}`}>
        {steps.map((step, index) => {
          const isSelected = index === selected;
          const isLast = index === steps.length - 1;
          return (
            <li key={step.id} data-index={index} className="relative pl-6">
              {!isLast && <span aria-hidden="true" className="absolute top-4 bottom-0 left-[7px] w-px bg-zinc-300" />}
              <span
                aria-hidden="true"
                className={`absolute top-2.5 left-[3px] size-[9px] rounded-full border-2 ${
                  isSelected ? "border-indigo-600 bg-indigo-600" : "border-zinc-400 bg-white"
                }`}
              />
              <button
                type="button"
                onClick={() => onSelect(index)}
                tabIndex={index === current ? 0 : -1}
                aria-current={isSelected ? "step" : undefined}
                className={`mb-1 w-full rounded-md px-2 py-1.5 text-left focus-visible:outline-2 focus-visible:outline-indigo-500 ${
                  isSelected ? "bg-indigo-50 ring-1 ring-indigo-200" : "hover:bg-zinc-100"
                }`}
              >
                <span className="block text-sm text-zinc-900">
                  <span className="mr-1.5 font-medium text-zinc-600">{step.index}.</span>
                  {step.text ? stepWords(step.text) : describeStep(step)}
                </span>
                <span className="mt-0.5 flex flex-wrap gap-x-2 text-xs text-zinc-600">
                  <time dateTime={step.created_at}>{formatTime(step.created_at)}</time>
                  {step.text && <span className="font-mono">{describeStep(step)}</span>}
                </span>
              </button>
            </li>
          );
        })}
      </ol>
    </>
  );
}

/** The item a key moves to, or null for keys the list leaves alone. */
function indexForKey(key: string, index: number, count: number): number | null {
  if (count === 0) return null;
  switch (key) {
    case "ArrowUp":
      return Math.max(index - 1, 0);
    case "ArrowDown":
      return Math.min(index + 1, count - 1);
    case "Home":
      return 0;
    case "End":
      return count - 1;
    default:
      return null;
  }
}
