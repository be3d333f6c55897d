// The report as a page a person would rather look at than read (DIR/report.html): the summary in
// large figures, success per task with a link to each run, time and cost as bar charts, and the
// slowest steps. One self-contained file: no script, no fetch, so it opens from disk.
import type { Report, ReportRow } from "./report.ts";

function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function money(usd: number | null): string {
  if (usd === null) return "no price";
  return usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** Bars of how many episodes fall in each of `bins` equal ranges of a figure. */
function histogram(title: string, values: number[], format: (v: number) => string, bins = 10): string {
  if (values.length === 0) return `<figure><figcaption>${esc(title)}</figcaption><p class="muted">nothing to show</p></figure>`;
  const min = Math.min(...values);
  const max = Math.max(...values);
  const width = (max - min) / bins || 1;
  const counts = new Array<number>(bins).fill(0);
  for (const v of values) counts[Math.min(bins - 1, Math.floor((v - min) / width))]!++;
  const top = Math.max(...counts);
  const bars = counts
    .map((count, i) => {
      const h = Math.round((count / top) * 100);
      const from = min + i * width;
      return `<rect x="${i * 30 + 2}" y="${110 - h}" width="26" height="${h}" rx="3"><title>${esc(`${format(from)} – ${format(from + width)}: ${count}`)}</title></rect>${count ? `<text x="${i * 30 + 15}" y="${106 - h}">${count}</text>` : ""}`;
    })
    .join("");
  return `<figure><figcaption>${esc(title)}</figcaption><svg viewBox="-24 0 ${bins * 30 + 48} 124" role="img" aria-label="${esc(title)}">${bars}<text x="0" y="122" class="axis" text-anchor="start">${esc(format(min))}</text><text x="${bins * 30}" y="122" class="axis" text-anchor="end">${esc(format(max))}</text></svg></figure>`;
}

/** One row per task: a mark per episode (linked to its run), its success share, median time and cost. */
function taskRows(rows: ReportRow[]): string {
  const byTask = new Map<string, ReportRow[]>();
  for (const row of rows) byTask.set(row.id, [...(byTask.get(row.id) ?? []), row]);
  return [...byTask.entries()]
    .map(([id, episodes]) => {
      const wins = episodes.filter((e) => e.success).length;
      const marks = episodes
        .map((e) => `<a class="mark ${e.success ? "ok" : "bad"}" href="${esc(e.run_url)}" title="${esc(`episode ${e.episode}: ${e.status}${e.error_code ? ` ${e.error_code}` : ""} — ${e.why}`)}">${e.success ? "✓" : "✗"}</a>`)
        .join("");
      const seconds = episodes.map((e) => e.seconds).sort((a, b) => a - b);
      const cost = episodes.every((e) => e.cost_usd === null) ? null : episodes.reduce((sum, e) => sum + (e.cost_usd ?? 0), 0);
      const why = episodes.find((e) => !e.success)?.why ?? "";
      return `<tr><th scope="row">${esc(id)}</th><td>${marks}</td><td class="num">${Math.round((wins / episodes.length) * 100)}%</td><td class="num">${seconds[seconds.length >> 1]!.toFixed(1)} s</td><td class="num">${(episodes.reduce((s, e) => s + e.steps, 0) / episodes.length).toFixed(1)}</td><td class="num">${money(cost)}</td><td class="why">${esc(why)}</td></tr>`;
    })
    .join("\n");
}

export function reportHtml(report: Report): string {
  const { summary } = report;
  const figures: [string, string][] = [
    ["success", `${Math.round(summary.success_rate * 1000) / 10}%`],
    ["episodes", String(summary.episodes)],
    ["median time", `${summary.median_seconds.toFixed(1)} s`],
    ["median step", `${summary.median_step_seconds.toFixed(2)} s`],
    ["mean steps", summary.mean_steps.toFixed(1)],
    ["total cost", money(summary.total_cost_usd)],
  ];
  const slow = report.slowest_steps
    .map((s) => `<tr><td><a href="${esc(s.run_url)}">${esc(s.id)} #${s.episode}</a></td><td class="num">${s.index}</td><td>${esc(s.text)}</td><td class="num">${s.seconds.toFixed(2)} s</td><td class="num">${s.model_seconds.toFixed(2)} s</td><td>${esc(s.longest_phase ?? "")}</td></tr>`)
    .join("\n");
  const costs = report.tasks.flatMap((t) => (t.cost_usd === null ? [] : [t.cost_usd]));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(report.suite)} — ${esc(report.model)}</title>
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:24px;color:#1d232b;background:#f7f8fa}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:32px 0 8px}.muted{color:#65707d}
.figures{display:flex;flex-wrap:wrap;gap:12px;margin:20px 0}.figure{background:#fff;border-radius:10px;padding:12px 18px;min-width:120px;box-shadow:0 1px 2px #0001}
.figure b{display:block;font-size:26px}.figure span{color:#65707d;font-size:13px}
table{border-collapse:collapse;width:100%;background:#fff;border-radius:10px;overflow:hidden;box-shadow:0 1px 2px #0001}
th,td{padding:7px 10px;text-align:left;border-bottom:1px solid #eef0f3;vertical-align:top}thead th{font-size:13px;color:#65707d;font-weight:600}
.num{text-align:right;white-space:nowrap}.why{font-size:13px;color:#65707d;max-width:380px}
.mark{display:inline-block;width:22px;height:22px;line-height:22px;text-align:center;border-radius:5px;margin:0 2px 2px 0;text-decoration:none;color:#fff;font-weight:700}
.ok{background:#1f9d55}.bad{background:#d64545}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(300px,1fr));gap:16px}figure{margin:0;background:#fff;border-radius:10px;padding:12px;box-shadow:0 1px 2px #0001}
figcaption{font-weight:600;margin-bottom:6px}svg{width:100%;height:auto}rect{fill:#4a78c2}svg text{font-size:9px;text-anchor:middle;fill:#1d232b}svg .axis{fill:#65707d}
</style></head><body>
<h1>${esc(report.suite)}</h1>
<p class="muted">${esc(report.model)} · started ${esc(report.started_at)} · ${summary.tokens_in.toLocaleString("en")} tokens in, ${summary.tokens_out.toLocaleString("en")} out · harness overhead ${summary.median_overhead_seconds.toFixed(2)} s per episode (median)</p>
<div class="figures">${figures.map(([label, value]) => `<div class="figure"><b>${esc(value)}</b><span>${esc(label)}</span></div>`).join("")}</div>
<h2>Success per task</h2>
<p class="muted">Each mark is an episode; it opens the run in the UI.</p>
<table><thead><tr><th>Task</th><th>Episodes</th><th class="num">Success</th><th class="num">Median time</th><th class="num">Steps</th><th class="num">Cost</th><th>Why the first failure failed</th></tr></thead>
<tbody>
${taskRows(report.tasks)}
</tbody></table>
<h2>Time and cost</h2>
<div class="charts">
${histogram("Seconds per episode", report.tasks.map((t) => t.seconds), (v) => `${v.toFixed(1)} s`)}
${histogram("Model seconds per episode", report.tasks.map((t) => t.model_seconds), (v) => `${v.toFixed(1)} s`)}
${histogram("Cost per episode", costs, (v) => money(v))}
</div>
<h2>Slowest steps</h2>
<table><thead><tr><th>Run</th><th class="num">Step</th><th>What it did</th><th class="num">Time</th><th class="num">Model</th><th>Most of it in</th></tr></thead>
<tbody>
${slow || '<tr><td colspan="6" class="muted">No steps were recorded.</td></tr>'}
</tbody></table>
</body></html>
`;
}
