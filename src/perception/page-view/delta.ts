// A page view as the changes since the view of the same page before it (issue 15): the lines that
// went and came, each hunk with a line of context, in the manner of a unified diff. Sent instead
// of the view when it is smaller, while the model still has the view it changes.
import { tokenCounter } from "./tokens.ts";

/** How a delta's first line begins; the context compression keeps the view it applies to. */
export const DELTA_MARK = "Changes since your last view";
/** Views longer than this many lines on either side are sent whole: the comparison grows as their product. */
const MAX_LINES = 2_000;

/**
 * The changes from `before` to `after` (two views, header first), or null when they are not
 * smaller than `after` by half.
 * @example await viewDelta("Page — x\n- button \"A\" [ref=e1]", "Page — x\n- button \"B\" [ref=e2]")
 */
export async function viewDelta(before: string, after: string, afterTokens?: number): Promise<{ text: string; tokens: number } | null> {
  const [oldHeader, ...old] = before.split("\n");
  const [header, ...now] = after.split("\n");
  if (oldHeader !== header || old.length > MAX_LINES || now.length > MAX_LINES) return null;
  const hunks = diff(old, now);
  const text = hunks.length
    ? [`${header}\n${DELTA_MARK} ("~" changed, as it is now; "-" went; "+" came; unmarked lines show where):`, ...hunks].join("\n")
    : `${header}\n${DELTA_MARK}: nothing changed.`;
  const count = await tokenCounter();
  const tokens = count(text);
  return tokens * 2 <= (afterTokens ?? count(after)) ? { text, tokens } : null;
}

/** Hunks of "~", "-", "+" and " " lines, "…" where unchanged lines were left out. */
function diff(a: string[], b: string[]): string[] {
  // Longest common subsequence, filled from the end so that the walk below goes forwards.
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint16Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const ops: { kind: " " | "-" | "+" | "~"; line: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) ops.push({ kind: " ", line: a[i++]! }), j++;
    else if (i < a.length && (j === b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) ops.push({ kind: "-", line: a[i++]! });
    else ops.push({ kind: "+", line: b[j++]! });
  }
  // A line whose element is still there with another line is one "~" line: the new one, its ref says where.
  const refOf = (line: string) => /\[ref=([^\]]+)\]/.exec(line)?.[1];
  const added = new Map(ops.flatMap((op, k) => (op.kind === "+" && refOf(op.line) ? [[refOf(op.line)!, k] as const] : [])));
  const replaced = new Set<number>();
  for (const op of ops) {
    const k = op.kind === "-" && refOf(op.line) ? added.get(refOf(op.line)!) : undefined;
    if (k !== undefined) replaced.add(k), (op.kind = " "), (op.line = "");
  }
  const kept = ops.flatMap((op, k) => (op.line === "" && op.kind === " " ? [] : [replaced.has(k) ? { kind: "~" as const, line: op.line } : op]));
  // Lines that came or went get a line of context on each side; a "~" line needs none.
  const moved = (k: number) => kept[k] !== undefined && (kept[k]!.kind === "+" || kept[k]!.kind === "-");
  const out: string[] = [];
  let skipped = false;
  kept.forEach((op, k) => {
    if (op.kind === " " && !moved(k - 1) && !moved(k + 1)) {
      skipped = true;
      return;
    }
    if (skipped) out.push("…");
    skipped = false;
    out.push(`${op.kind}${op.line}`);
  });
  if (skipped) out.push("…");
  return kept.some((op) => op.kind !== " ") ? out : [];
}
