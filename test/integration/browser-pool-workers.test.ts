// Two processes on one Postgres (a `serve` and a worker, or two workers) given the same
// BROWSER_CDP_URLS never lease one browser to two tasks: the browser is claimed in the store, and a
// task of the other process waits for it, or fails NO_BROWSER_FREE counting it busy.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionEvent } from "../../src/protocol/index.ts";
import { startApp, type TestApp } from "../support/app.ts";
import { startPostgres, type Postgres } from "../support/postgres.ts";
import { pagesOf, startRemote, type Remote } from "../support/remote-chromium.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages } = useWorld({ app: false });

let postgres: Postgres;
let remote: Remote;
let here: TestApp;
let there: TestApp;
beforeAll(async () => {
  [postgres, remote] = await Promise.all([startPostgres(), startRemote()]);
  const databaseUrl = await postgres.database();
  const browser = { cdpUrls: [remote.url], leaseWaitMs: 1_500 };
  // Both start before any task: each marks the tasks it finds running as a dead process's.
  here = await startApp({ modelBaseUrl: model.baseUrl, config: { databaseUrl, browser } });
  there = await startApp({ modelBaseUrl: model.baseUrl, config: { databaseUrl, browser } });
}, 60_000);
afterAll(async () => {
  await here?.close();
  await there?.close();
  remote?.process.kill();
  await postgres?.stop();
});

async function send(app: TestApp, name: string, held: Promise<void>) {
  model.route((r) => planningText(r).includes(`Task: ${name}`), { ...act("done", { answer: `${name} done` }), until: held });
  const session = `s-${name.replaceAll(" ", "-")}`;
  const events = await openStream(app.url, session, 0);
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text: name, start_url: pages.url(`form.html?${session}`) });
  return { id: json.task_id, events };
}

describe("a browser pool shared by processes on one Postgres", () => {
  it("leases a browser to one process's task at a time", async () => {
    let open!: () => void;
    const held = new Promise<void>((resolve) => (open = resolve));
    const first = await send(here, "hold it here", held);
    await expect.poll(async () => (await pagesOf(remote.url)).some((p) => p.url.includes("s-hold-it-here")), { timeout: 20_000 }).toBe(true);

    const refused = await send(there, "want it there", Promise.resolve());
    const end = (await refused.events.waitForEnd(refused.id)) as Extract<SessionEvent, { type: "task.failed" }>;
    expect(end.error.code).toBe("NO_BROWSER_FREE");
    expect(end.error.message).toContain("of the 1 in BROWSER_CDP_URLS, 1 is busy with other tasks and 0 are down");
    expect((await pagesOf(remote.url)).some((p) => p.url.includes("s-want-it-there"))).toBe(false);

    open();
    expect(await first.events.completes(first.id)).toMatchObject({ answer: "hold it here done" });
    const after = await send(there, "take it there", Promise.resolve());
    expect(await after.events.completes(after.id)).toMatchObject({ answer: "take it there done" });
    for (const task of [first, refused, after]) task.events.close();
  });
});
