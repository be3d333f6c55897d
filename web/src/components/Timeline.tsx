// The progress timeline: one item per step on a vertical line, the selected one highlighted;
// choosing an item selects its step. Presentational: the run card owns the selection.
import { useEffect, useRef } from "react";
import { describeStep, type ProgressStep } from "../protocol.ts";
import { formatTime, t } from "../i18n.ts";

export interface TimelineProps {
  id: string;
  steps: readonly ProgressStep[];
  /** The selected step's index, or null when the live screen is shown. */
  selected: number | null;
  onSelect: (index: number) => void;
}

export function Timeline({ id, steps, selected, onSelect }: TimelineProps) {
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

  return (
    <ol ref={list} id={id} aria-label={t.progress} className="relative max-h-72 overflow-y-auto px-1 py-1 lg:max-h-[28rem]">
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
              aria-current={isSelected ? "step" : undefined}
              className={`mb-1 w-full rounded-md px-2 py-1.5 text-left focus-visible:outline-2 focus-visible:outline-indigo-500 ${
                isSelected ? "bg-indigo-50 ring-1 ring-indigo-200" : "hover:bg-zinc-100"
              }`}
            >
              <span className="block text-sm text-zinc-900">
                <span className="mr-1.5 font-medium text-zinc-500">{step.index}.</span>
                {step.text || describeStep(step)}
              </span>
              <span className="mt-0.5 flex flex-wrap gap-x-2 text-xs text-zinc-500">
                <time dateTime={step.created_at}>{formatTime(step.created_at)}</time>
                {step.text && <span className="font-mono">{describeStep(step)}</span>}
              </span>
            </button>
          </li>
        );
      })}
    </ol>
  );
}
