// A run's player: the timeline, the screen window and the scrubber, all reading and setting one
// position (a step, or the live screen), with the step's checks under it; and the live screen a
// task waiting for the person opens for them to act on. The card owns the position.
import { useState, type ReactNode, type RefObject } from "react";
import { t } from "../i18n.ts";
import type { PersonInputBody } from "../protocol.ts";
import { positionFromValue, screenView, scrubberValue, type Position, type Shot } from "../state/run-view.ts";
import type { RunState } from "../state/session-state.ts";
import { stepWords } from "../state/step-words.ts";
import { ScreenWindow } from "./ScreenWindow.tsx";
import { Scrubber } from "./Scrubber.tsx";
import { StepChecks, StepCost } from "./StepChecks.tsx";
import { ToolCall } from "./ToolCall.tsx";
import { Timeline } from "./Timeline.tsx";

export interface PlayerProps {
  box: RefObject<HTMLDivElement | null>;
  /** A pointer is pressed in the player (dragging the scrubber). */
  onPressing: (pressing: boolean) => void;
  run: RunState;
  position: Position;
  onPosition: (position: Position) => void;
  showTimeline: boolean;
  timelineId: string;
  /** On the stage of a wide window: the card shows the timeline in the chat's column instead. */
  staged: boolean;
  finished: boolean;
  actions: ReactNode;
  /** The screen is the person's (a takeover): their input on it goes here. */
  control: ((input: PersonInputBody) => void) | undefined;
  /** Shown under the live screen (the takeover's Resume). */
  below: ReactNode;
  /** In the focus view: the screen as large as it goes, the timeline beside it (under it on a phone). */
  focus: boolean;
  onEnlarge: (() => void) | undefined;
}

/** A task waiting for the person to act: its live screen, large, for them to act on. */
/** On a phone the screen spans the card's width, out to its edges past the padding it sits in. */
const BLEED = "max-sm:-mx-2 max-sm:w-[calc(100%+1rem)] max-sm:rounded-none max-sm:border-x-0";
const PERSON_BLEED = "max-sm:-mx-4 max-sm:w-[calc(100%+2rem)] max-sm:rounded-none max-sm:border-x-0";

export function PersonScreen({ run, control, onEnlarge, focus = false }: { run: RunState; control: (input: PersonInputBody) => void; onEnlarge?: () => void; focus?: boolean }) {
  return (
    <div className={`flex flex-col gap-1 ${focus ? "" : "mt-3"}`}>
      {focus && run.task.answer && <p className="mb-1 text-sm text-zinc-800">{run.task.answer}</p>}
      <ScreenWindow view={screenView(run, "live")} status={run.task.status} positionLabel={t.live} alt={t.liveShot} control={control} onEnlarge={onEnlarge} focus={focus} size={focus ? "focus" : "card"} className={focus ? "" : PERSON_BLEED} />
      <p className="text-xs text-zinc-600">{t.actHint}</p>
    </div>
  );
}

/** Timeline, screen and scrubber, all reading and setting the same position. */
export function Player({ box, onPressing, run, position, onPosition, showTimeline, timelineId, staged, finished, actions, control, below, focus, onEnlarge }: PlayerProps) {
  const count = run.steps.length;
  const value = scrubberValue(position, count);
  // Which of the step's screenshots the person asked for; a step shows the one before its action until they do.
  const [shot, setShot] = useState<{ at: number; shot: Shot } | null>(null);
  if (shot && shot.at !== value) setShot(null);
  const view = screenView(run, positionFromValue(value, count), shot?.at === value ? shot.shot : undefined);
  // Seed 003 §4: while the task runs, the live screen carries the step counter and the last action.
  const liveLabel = finished ? t.end : count > 0 ? t.liveStep(count) : t.live;
  const label = value === count ? liveLabel : t.stepOf(value + 1, count);
  // On wide screens the timeline stands beside the screen, so the whole card fits in view.
  return (
    <div
      ref={box}
      onPointerDownCapture={() => onPressing(true)}
      onPointerUpCapture={() => onPressing(false)}
      onPointerCancelCapture={() => onPressing(false)}
      className={`flex flex-col gap-2 ${focus ? "lg:grid lg:grid-cols-[18rem_minmax(0,1fr)] lg:items-start lg:gap-4" : showTimeline && !staged ? "lg:grid lg:grid-cols-[15rem_minmax(0,1fr)] lg:items-start lg:gap-3" : ""}`}
    >
      {showTimeline && (
        <div className={staged ? "lg:hidden" : "contents"}>
          <Timeline id={focus ? `${timelineId}-focus` : staged ? `${timelineId}-narrow` : timelineId} steps={run.steps} selected={value === count ? null : value} onSelect={onPosition} tall={focus} />
        </div>
      )}
      <div className="flex min-w-0 flex-col gap-1">
        <ScreenWindow
          view={view}
          status={run.task.status}
          positionLabel={label}
          alt={view.step ? t.stepShot(value + 1) : t.liveShot}
          actions={value === count ? actions : null}
          control={value === count ? control : undefined}
          onShot={(next) => setShot({ at: value, shot: next })}
          onEnlarge={onEnlarge}
          focus={focus}
          className={focus ? "" : BLEED}
        />
        {value === count && below}
        <Scrubber
          stepCount={count}
          value={value}
          onChange={(next) => onPosition(positionFromValue(next, count))}
          liveLabel={liveLabel}
          valueText={view.step ? `${label}: ${stepWords(view.step.text)}` : label}
        />
        {view.step && <StepChecks step={view.step} />}
        {view.step?.tool && <ToolCall call={view.step.tool} />}
        {view.step && <StepCost step={view.step} />}
      </div>
    </div>
  );
}
