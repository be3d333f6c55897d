// A model that writes at length costs the disk little (issue 31): the reasoning a step keeps is cut
// to a bound like any other text, and kept once — in the step's row, from which its event is
// replayed — so a 7 MB answer adds kilobytes to the database, not the 14 MB (the step's row and
// its event) it once did.
import { stat } from "node:fs/promises";
import path from "node:path";
import SQLite from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { TaskReply } from "../../src/protocol/index.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages, app } = useWorld();

/** The database's size on disk, its write-ahead log included. */
async function databaseBytes(): Promise<number> {
  const file = path.join(app.dataDir, "easyagentcu.sqlite");
  const sizes = await Promise.all([file, `${file}-wal`].map((f) => stat(f).then((s) => s.size, () => 0)));
  return sizes[0]! + sizes[1]!;
}

describe("a step's reasoning", () => {
  it("is kept once, cut to a bound, and so is the step's line, however long the model wrote", async () => {
    const thought = "I consider the page once more. ".repeat(230_000);
    expect(thought.length).toBeGreaterThan(7_000_000);
    model.route((r) => JSON.stringify(r.body).includes("Task: think at length"), { answer: { thought, progress: "Finishing ".repeat(1_000), action: { type: "done", args: { answer: "ok" } } } });
    const events = await openStream(app.url, "s-long-thought", 0);
    const before = await databaseBytes();
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-long-thought", text: "think at length", start_url: pages.url("form.html") });
    await events.completes(json.task_id);
    events.close();

    const { steps } = (await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`)).json;
    expect(steps[0]!.thought.length).toBeLessThan(20_000);
    expect(steps[0]!.thought).toMatch(/^I consider the page once more\. [\s\S]*characters cut\]$/);
    expect(steps[0]!.text.length).toBeLessThan(1_100);
    // The frame of the step, and kilobytes besides.
    expect((await databaseBytes()) - before).toBeLessThan(1_000_000);

    // Once: the step's event holds no copy, yet a stream replayed from the start shows the reasoning.
    const db = new SQLite(path.join(app.dataDir, "easyagentcu.sqlite"), { readonly: true });
    const rows = db.prepare("SELECT data FROM events WHERE session_id = ?").all("s-long-thought") as { data: string }[];
    db.close();
    expect(rows.filter((row) => row.data.includes("I consider the page once more"))).toEqual([]);
    const replay = await openStream(app.url, "s-long-thought", 0);
    const replayed = await replay.waitFor((e) => e.type === "progress.append");
    replay.close();
    expect(replayed).toMatchObject({ step: { id: steps[0]!.id, thought: steps[0]!.thought } });
  });
});
