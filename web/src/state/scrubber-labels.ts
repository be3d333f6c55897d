// Owns which of the scrubber's step nodes get their number under the track: all while they fit,
// else every 2nd, 5th, 10th… so that no two labels touch, always the selected step, and never one
// under the live node's label.

export interface LabelLayout {
  stepCount: number;
  /** The track's width in CSS pixels. */
  trackWidth: number;
  /** The selected value: 0…stepCount-1 a step, stepCount the live node. */
  selected: number;
  /** The live node's label width; it ends at the track's end. */
  liveWidth: number;
}

/** The room one number label needs, with a gap. */
const LABEL_ROOM_PX = 24;
const STRIDES = [1, 2, 5, 10, 20, 50, 100, 200, 500];

/** The indices (0…stepCount-1) of the steps whose number is shown, in order. */
export function labelledSteps({ stepCount, trackWidth, selected, liveWidth }: LabelLayout): number[] {
  if (stepCount === 0) return [];
  const gap = trackWidth / stepCount;
  const stride = STRIDES.find((s) => s * gap >= LABEL_ROOM_PX) ?? STRIDES.at(-1)!;
  const x = (index: number) => index * gap;
  const clearOfLive = (index: number) => x(index) + LABEL_ROOM_PX / 2 <= trackWidth - liveWidth;
  const chosen = selected < stepCount ? selected : null;
  const labelled: number[] = [];
  for (let index = 0; index < stepCount; index++) {
    if (index === chosen) {
      labelled.push(index);
      continue;
    }
    const onStride = index === 0 || (index + 1) % stride === 0;
    const clearOfChosen = chosen === null || Math.abs(x(index) - x(chosen)) >= LABEL_ROOM_PX;
    if (onStride && clearOfChosen && clearOfLive(index)) labelled.push(index);
  }
  return labelled;
}

/** About how wide a label is at 11px: CJK characters take a full em, others about 0.6 of it. */
export function labelWidth(text: string): number {
  let width = 0;
  for (const char of text) width += char.codePointAt(0)! >= 0x2e80 ? 11 : 6.6;
  return width;
}
