// The public web-task files people already have, read as suites: WebVoyager's JSONL (one
// {web_name, id, ques, web} a line) and Online-Mind2Web's JSON (a list of {task_id,
// confirmed_task, website, reference_length}). Their tasks run on live sites, judged by a model.
import path from "node:path";

/** A suite as its file would say it, for the suite schema to check like any other. */
type RawSuite = { name: string; tasks: Record<string, unknown>[] };

function judged(question: string): string {
  return `The agent did this task on the live site: "${question}". Its final answer, or the screen it ended on, shows the task done in full.`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** WebVoyager: a line is a task; a line that is not JSON is kept as is, for the suite's check to name. */
function webVoyager(text: string, file: string): RawSuite {
  const lines = text.split("\n").filter((line) => line.trim());
  const tasks = lines.map((line) => {
    const row = JSON.parse(line) as Record<string, unknown>;
    return { id: row.id, text: row.ques, start_url: row.web, check: { judge: judged(String(row.ques)) } };
  });
  return { name: path.basename(file, path.extname(file)), tasks };
}

/** Mind2Web's reference length is a person's step count; the agent gets three times as many, at least 10. */
function onlineMind2Web(rows: Record<string, unknown>[], file: string): RawSuite {
  const tasks = rows.map((row) => ({
    id: row.task_id,
    text: row.confirmed_task,
    start_url: row.website,
    max_steps: Math.max(10, 3 * (Number(row.reference_length) || 0)),
    check: { judge: judged(String(row.confirmed_task)) },
  }));
  return { name: path.basename(file, path.extname(file)), tasks };
}

/** The file as a suite when it is one of the public formats; otherwise null, and it is read as a suite itself. */
export function importedSuite(text: string, file: string, parsed: unknown): RawSuite | null {
  if (/\.jsonl$/i.test(file)) return webVoyager(text, file);
  if (Array.isArray(parsed) && parsed.every(isRecord) && parsed.some((row) => "confirmed_task" in row)) return onlineMind2Web(parsed, file);
  return null;
}
