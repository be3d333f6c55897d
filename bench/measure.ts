// What the benchmarks share: timing one piece of work, and the median of a run of timings.

/** Milliseconds `work` took. */
export async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** The median, to a tenth of a millisecond. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)]! * 10) / 10;
}

/** The p-th quantile (0–1), to a tenth of a millisecond. */
export function quantile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! * 10) / 10;
}

/**
 * Writes one benchmark's figures to bench/results/<name>.json (with the machine they were measured
 * on), for `npm run bench` to gather; returns the file's path.
 */
export async function writeResult(name: string, figures: object): Promise<string> {
  const { mkdir, writeFile } = await import("node:fs/promises");
  const os = await import("node:os");
  const dir = new URL("./results/", import.meta.url);
  await mkdir(dir, { recursive: true });
  const file = new URL(`${name}.json`, dir);
  const machine = { cpus: os.cpus().length, cpu: os.cpus()[0]?.model ?? "unknown", memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version, platform: `${os.platform()} ${os.release()}` };
  await writeFile(file, `${JSON.stringify({ name, measuredAt: new Date().toISOString(), machine, ...figures }, null, 2)}\n`);
  return file.pathname;
}
