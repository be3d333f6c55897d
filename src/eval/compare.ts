// `eval --compare A/report.json B/report.json`: two runs side by side, per task and overall, as
// terminal text. A task only one run has shows a dash on the other side.
import { readFile } from "node:fs/promises";
import { AppError } from "../core/errors.ts";
import { median, type Report, type ReportRow } from "./report.ts";

export async function readReport(file: string): Promise<Report> {
  const text = await readFile(file, "utf8").catch((error: unknown) => {
    throw new AppError("NOT_FOUND", `Cannot read the report ${file}: ${(error as Error).message}`);
  });
  const report = JSON.parse(text) as Partial<Report>;
  if (!Array.isArray(report.tasks) || !report.summary) throw new AppError("INVALID_BODY", `${file} is not an evaluation report: it has no tasks and summary.`);
  return report as Report;
}

interface Side {
  success: string;
  seconds: string;
  steps: string;
  cost: string;
}

function side(rows: ReportRow[] | undefined): Side {
  if (!rows?.length) return { success: "–", seconds: "–", steps: "–", cost: "–" };
  const priced = rows.filter((r) => r.cost_usd !== null);
  return {
    success: `${rows.filter((r) => r.success).length}/${rows.length}`,
    seconds: `${median(rows.map((r) => r.seconds)).toFixed(1)}s`,
    steps: (rows.reduce((s, r) => s + r.steps, 0) / rows.length).toFixed(1),
    cost: priced.length ? `$${priced.reduce((s, r) => s + r.cost_usd!, 0).toFixed(4)}` : "–",
  };
}

function byTask(report: Report): Map<string, ReportRow[]> {
  const map = new Map<string, ReportRow[]>();
  for (const row of report.tasks) map.set(row.id, [...(map.get(row.id) ?? []), row]);
  return map;
}

export function compareReports(a: Report, b: Report): string {
  const left = byTask(a);
  const right = byTask(b);
  const ids = [...new Set([...left.keys(), ...right.keys()])];
  const header = ["task", "A success", "B success", "A time", "B time", "A steps", "B steps", "A cost", "B cost"];
  const rows = ids.map((id) => {
    const [l, r] = [side(left.get(id)), side(right.get(id))];
    return [id, l.success, r.success, l.seconds, r.seconds, l.steps, r.steps, l.cost, r.cost];
  });
  const [sa, sb] = [a.summary, b.summary];
  const pct = (rate: number) => `${(rate * 100).toFixed(1)}%`;
  const usd = (cost: number | null) => (cost === null ? "–" : `$${cost.toFixed(4)}`);
  rows.push(["overall", pct(sa.success_rate), pct(sb.success_rate), `${sa.median_seconds.toFixed(1)}s`, `${sb.median_seconds.toFixed(1)}s`, sa.mean_steps.toFixed(1), sb.mean_steps.toFixed(1), usd(sa.total_cost_usd), usd(sb.total_cost_usd)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [`A: ${a.suite} · ${a.model} · ${a.started_at}`, `B: ${b.suite} · ${b.model} · ${b.started_at}`, "", line(header), ...rows.slice(0, -1).map(line), "", line(rows.at(-1)!)].join("\n");
}
