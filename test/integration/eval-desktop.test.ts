// The desktop suite's terminal tasks through `easyagentcu eval --tasks`, on a real virtual desktop
// (Xvfb, openbox, xterm): a file the task saves into the desktop's Downloads folder passes a `file`
// check, an answer an `answer` check. Only these two run here: the editor's and the file manager's
// tasks take a minute each on a shared machine, and the checks they use are the same.
import { spawn } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../src/eval/report.ts";
import { act, planningText, type Reply, type RecordedRequest, type ScriptedModel, startScriptedModel } from "../support/scripted-model.ts";
import { TERMINAL } from "../support/terminal.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SUITE = path.join(ROOT, "evals/desktop/suite.yaml");

let model: ScriptedModel;
beforeAll(async () => {
  model = await startScriptedModel();
});
afterAll(() => model.close());

/**
 * A planner that waits until the terminal has the focus, then types the commands: each request
 * answers with a wait while no terminal is up, else with the next of `plan`.
 */
function inTerminal(task: string, plan: Reply[]): void {
  const steps = [...plan];
  const next = (request: RecordedRequest): Reply => (/Active window: .*\(xterm\)/i.test(planningText(request)) ? steps.shift()! : act("wait", { ms: 300 }, "Waiting for the terminal"));
  model.route((r) => planningText(r).includes(`Task: ${task}`), ...Array.from({ length: 60 }, () => next));
}

describe("the desktop suite's terminal tasks", () => {
  it("save a file into Downloads and answer from the terminal, both checked", async () => {
    inTerminal("In the terminal, save the word hello", [
      act("type", { text: 'echo hello > "$XDG_DOWNLOAD_DIR/hello.txt"' }, "Writing the file"),
      act("keypress", { keys: ["Enter"] }, "Running it"),
      act("done", { answer: "Saved hello.txt in Downloads." }, "Done"),
    ]);
    inTerminal("Use the terminal to work out 17 times 23", [
      act("type", { text: "echo $((17*23))" }, "Multiplying"),
      act("keypress", { keys: ["Enter"] }, "Running it"),
      act("done", { answer: "17 × 23 = 391." }, "Done"),
    ]);
    const out = await mkdtemp(path.join(tmpdir(), "easyagentcu-eval-desktop-"));
    const child = spawn(process.execPath, ["bin/easyagentcu.js", "eval", SUITE, "--tasks", "term-hello-file,term-multiply", "--out", out], {
      cwd: ROOT,
      env: { ...process.env, MODEL_BASE_URL: model.baseUrl, MODEL_NAME: "claude-haiku-4-5", MODEL_DIALECT: "json", MODEL_API_KEY: "test-key", DESKTOP_APPS: TERMINAL },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(err).toContain("[2/2]");
    expect(code).toBe(0);
    const report = JSON.parse(await readFile(path.join(out, "report.json"), "utf8")) as Report;
    expect(report.tasks.map((t) => ({ id: t.id, success: t.success, why: t.why }))).toEqual([
      { id: "term-hello-file", success: true, why: 'the file "hello.txt" matches /^hello\\.txt$/i' },
      { id: "term-multiply", success: true, why: 'the answer "17 × 23 = 391." matches /\\b391\\b/i' },
    ]);
  }, 240_000);
});
