// A suite file read as the harness reads it: checks become tagged checks, and a mistake names the task and field.
import { existsSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadSuite, parseSuite } from "./suite.ts";

const suite = (check: string) => `name: little\ntasks:\n  - id: first\n    text: Open the page\n    check: {url: done}\n  - id: second\n    text: Read the price\n    check: ${check}\n`;

describe("a suite file", () => {
  it("reads YAML checks into tagged checks, patterns without regard to case", () => {
    const read = parseSuite(suite("{all: [{answer: '42'}, {js: 'document.title === \"x\"'}]}"), "little.yaml");
    expect(read.tasks[1]!.check).toEqual({ type: "all", checks: [{ type: "answer", pattern: /42/i }, { type: "js", expression: 'document.title === "x"' }] });
  });

  it("names the task and the field of a check it cannot use", () => {
    expect(() => parseSuite(suite("{answr: '42'}"), "little.yaml")).toThrow(/little\.yaml has 2 mistakes: task "second" \(tasks\[1\]\) check: Unrecognized key: "answr"; task "second" \(tasks\[1\]\) check: must have exactly one of/);
    expect(() => parseSuite(suite("{url: '(unclosed'}"), "little.yaml")).toThrow(/task "second" \(tasks\[1\]\) check\.url: not a regular expression/);
    expect(() => parseSuite(suite("{url: a, answer: b}"), "little.yaml")).toThrow(/task "second" \(tasks\[1\]\) check: must have exactly one of url, page_text, js, answer, file, judge, all; it has url and answer/);
  });

  it("refuses two tasks with one id, and JSON that is not JSON", () => {
    expect(() => parseSuite(JSON.stringify({ name: "n", tasks: [{ id: "a", text: "x", check: { url: "y" } }, { id: "a", text: "z", check: { url: "y" } }] }), "n.json")).toThrow(/task "a" \(tasks\[1\]\) id: "a" is the id of an earlier task too/);
    expect(() => parseSuite("{", "n.json")).toThrow(/n\.json is not valid JSON/);
  });
});

describe("the public task files", () => {
  it("reads WebVoyager's JSONL as tasks on live sites, judged", () => {
    const lines = [
      { web_name: "Allrecipes", id: "Allrecipes--0", ques: "Find a vegetarian lasagna recipe with over 100 reviews.", web: "https://www.allrecipes.com/" },
      { web_name: "GitHub", id: "GitHub--3", ques: "Find the most starred JavaScript repository.", web: "https://github.com/" },
    ];
    const read = parseSuite(lines.map((l) => JSON.stringify(l)).join("\n"), "/tmp/WebVoyager_data.jsonl");
    expect(read.name).toBe("WebVoyager_data");
    expect(read.tasks[1]).toMatchObject({ id: "GitHub--3", text: "Find the most starred JavaScript repository.", start_url: "https://github.com/" });
    expect(read.tasks[1]!.check).toMatchObject({ type: "judge", criteria: expect.stringContaining("Find the most starred JavaScript repository.") });
  });

  it("reads Online-Mind2Web's JSON with a step cap from the reference length", () => {
    const rows = [{ task_id: "ade4c09ad3fdb1607209750924cd232f", confirmed_task: "Compare the prices of two ebikes.", website: "https://www.rei.com/", reference_length: 8 }];
    const read = parseSuite(JSON.stringify(rows), "Online_Mind2Web.json");
    expect(read.tasks[0]).toMatchObject({ id: "ade4c09ad3fdb1607209750924cd232f", start_url: "https://www.rei.com/", max_steps: 24, check: { type: "judge" } });
  });

  it("names the line of a WebVoyager task without a question", () => {
    expect(() => parseSuite(JSON.stringify({ web_name: "X", id: "X--1", web: "https://x.example/" }), "wv.jsonl")).toThrow(/task "X--1" \(tasks\[0\]\) text/);
  });
});

describe("the suites we ship", () => {
  it("read without a mistake: at least 30 web tasks on the suite's own pages, at least 10 desktop tasks", async () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const web = await loadSuite(path.join(root, "evals/web/suite.yaml"));
    expect(web.tasks.length).toBeGreaterThanOrEqual(30);
    for (const task of web.tasks) expect(existsSync(path.join(web.dir, web.pages!, task.start_url!.replace(/#.*$/, "")))).toBe(true);
    const desktop = await loadSuite(path.join(root, "evals/desktop/suite.yaml"));
    expect(desktop.tasks.length).toBeGreaterThanOrEqual(10);
    expect(desktop.tasks.every((t) => t.computer === "desktop")).toBe(true);
  });

  it("names an attachment that is not beside the suite before any task runs", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "easyagentcu-suite-"));
    await writeFile(path.join(dir, "s.yaml"), "name: s\ntasks:\n  - id: up\n    text: Upload it.\n    attachments: [gone.txt]\n    check: {answer: ok}\n");
    await expect(loadSuite(path.join(dir, "s.yaml"))).rejects.toThrow(`task "up" (tasks[0]) attachments[0]: there is no file ${path.join(dir, "gone.txt")}`);
  });
});
