// An evaluation suite as its file says it (docs/evaluation.md): JSON or YAML, read and checked here
// at the edge, so that a wrong field stops the run before any task starts, naming the task and the
// field. Inside, a check is a union tagged by `type`.
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { approvalPolicySchema } from "../core/approval-policy.ts";
import { AppError } from "../core/errors.ts";
import { AGENT_MODES, COMPUTERS } from "../protocol/index.ts";
import { importedSuite } from "./importers.ts";

/** What decides a task's success, judged on the task's end state (eval/checks.ts). */
export type Check =
  | { type: "url"; pattern: RegExp }
  | { type: "page_text"; pattern: RegExp }
  | { type: "js"; expression: string }
  | { type: "answer"; pattern: RegExp }
  | { type: "file"; pattern: RegExp }
  | { type: "judge"; criteria: string }
  | { type: "all"; checks: Check[] };

const CHECK_KINDS = ["url", "page_text", "js", "answer", "file", "judge", "all"] as const;

/** Patterns are JavaScript regular expressions, matched without regard to case: pages and answers vary it. */
const pattern = z.string().min(1).transform((source, ctx) => {
  try {
    return new RegExp(source, "i");
  } catch (error) {
    ctx.addIssue({ code: "custom", message: `not a regular expression: ${(error as Error).message}` });
    return z.NEVER;
  }
});

const checkSchema: z.ZodType<Check, unknown> = z.lazy(() =>
  z
    .object({
      url: pattern.optional(),
      page_text: pattern.optional(),
      js: z.string().min(1).optional(),
      answer: pattern.optional(),
      file: pattern.optional(),
      judge: z.string().min(1).optional(),
      all: z.array(checkSchema).min(1).optional(),
    })
    .strict()
    .transform((fields, ctx): Check => {
      const given = CHECK_KINDS.filter((kind) => fields[kind] !== undefined);
      if (given.length !== 1) {
        ctx.addIssue({ code: "custom", message: `must have exactly one of ${CHECK_KINDS.join(", ")}${given.length > 1 ? `; it has ${given.join(" and ")}` : ""}` });
        return z.NEVER;
      }
      const kind = given[0]!;
      switch (kind) {
        case "url":
        case "page_text":
        case "answer":
        case "file":
          return { type: kind, pattern: fields[kind]! };
        case "js":
          return { type: "js", expression: fields.js! };
        case "judge":
          return { type: "judge", criteria: fields.judge! };
        case "all":
          return { type: "all", checks: fields.all! };
      }
    }),
);

const taskSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9_.-]+$/, "must hold only letters, digits, '.', '_' and '-'"),
    text: z.string().trim().min(1),
    /** An http(s) address, or a path under the suite's `pages` folder as the harness serves it. */
    start_url: z.string().min(1).optional(),
    computer: z.enum(COMPUTERS).optional(),
    agent_mode: z.enum(AGENT_MODES).optional(),
    max_steps: z.number().int().positive().optional(),
    /** Files beside the suite, given to the task as a person attaches them. */
    attachments: z.array(z.string().min(1)).default([]),
    check: checkSchema,
  })
  .strict();

const suiteSchema = z
  .object({
    name: z.string().trim().min(1),
    /** A folder beside the suite that the harness serves on 127.0.0.1 for its tasks. */
    pages: z.string().min(1).optional(),
    /** The approval policy of the run: class → allow, ask or deny; the classes it leaves out keep their default. */
    approvals: approvalPolicySchema.optional(),
    /** How the person answers when a task asks: without it, a task that asks fails as `needs_user`. */
    person: z
      .object({
        approvals: z.enum(["approve", "refuse"]).optional(),
        /** `ack`: "I've done it", as if the person had done what the agent asked for. */
        needs_user: z.literal("ack").optional(),
      })
      .strict()
      .default({}),
    tasks: z.array(taskSchema).min(1),
  })
  .strict()
  .superRefine((suite, ctx) => {
    const seen = new Set<string>();
    for (const [i, task] of suite.tasks.entries()) {
      if (seen.has(task.id)) ctx.addIssue({ code: "custom", path: ["tasks", i, "id"], message: `"${task.id}" is the id of an earlier task too` });
      seen.add(task.id);
    }
  });

export type SuiteTask = z.infer<typeof taskSchema>;
export type Suite = z.infer<typeof suiteSchema> & {
  /** The suite file's folder: `pages` and attachments are found from it. */
  dir: string;
  file: string;
};

/** Reads and checks a suite file; throws INVALID_SUITE naming the task and field at fault. */
export async function loadSuite(file: string): Promise<Suite> {
  const text = await readFile(file, "utf8").catch((error: unknown) => {
    throw new AppError("INVALID_SUITE", `Cannot read the suite ${file}: ${(error as Error).message}`);
  });
  const suite = parseSuite(text, file);
  // A missing file is the suite's mistake, found before any task starts rather than halfway through.
  for (const [i, task] of suite.tasks.entries()) {
    for (const [j, name] of task.attachments.entries()) {
      const at = path.resolve(suite.dir, name);
      if (!(await stat(at).then((s) => s.isFile(), () => false))) throw new AppError("INVALID_SUITE", `${file} has a mistake: task "${task.id}" (tasks[${i}]) attachments[${j}]: there is no file ${at}`);
    }
  }
  return suite;
}

/** A suite file, or one of the public task formats (eval/importers.ts) read as one. */
export function parseSuite(text: string, file: string): Suite {
  const json = /\.jsonl?$/i.test(file);
  let raw: unknown;
  try {
    const parsed: unknown = /\.jsonl$/i.test(file) ? null : json ? JSON.parse(text) : parseYaml(text);
    raw = importedSuite(text, file, parsed) ?? parsed;
  } catch (error) {
    throw new AppError("INVALID_SUITE", `${file} is not valid ${json ? "JSON" : "YAML"}: ${(error as Error).message}`);
  }
  const parsed = suiteSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${where(raw, issue.path)}: ${issue.message}`);
    throw new AppError("INVALID_SUITE", `${file} has ${problems.length === 1 ? "a mistake" : `${problems.length} mistakes`}: ${problems.join("; ")}`);
  }
  return { ...parsed.data, dir: path.dirname(path.resolve(file)), file: path.resolve(file) };
}

/** `task "login-wall" (tasks[7]) check.url` for a path into the suite, so the person finds the line. */
function where(raw: unknown, at: readonly PropertyKey[]): string {
  if (at[0] !== "tasks" || typeof at[1] !== "number") return at.length === 0 ? "the suite" : at.map(String).join(".");
  const tasks = (raw as { tasks?: { id?: unknown }[] }).tasks;
  const id = tasks?.[at[1]]?.id;
  const field = at.slice(2).map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("").replace(/^\./, "");
  return `task ${typeof id === "string" ? `"${id}" ` : ""}(tasks[${at[1]}])${field ? ` ${field}` : ""}`;
}
