// A chat's sign-ins carry from one of its tasks to the next: each task has a browser context of its
// own, and the next task of the same chat starts with the cookies (HttpOnly ones among them) the
// last one ended with. Another chat starts signed out, and so does a chat again once it was deleted.
import { describe, expect, it } from "vitest";
import { act, planningText } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages, app } = useWorld();

/**
 * What the account page reported since `from`, once it reported `count` times (it reports each
 * load). Waited on from the send, a browser's launch among it: longer than the usual poll.
 */
async function reported(from: number, count: number): Promise<string[]> {
  const reports = () => pages.records.slice(from).filter((r) => r.startsWith("account:"));
  await expect.poll(() => reports().length, { timeout: 60_000 }).toBeGreaterThanOrEqual(count);
  return reports();
}

/**
 * Runs a task of the chat on the account page, which signs in first when `signIn`; what the page
 * reported while it ran. Each answer waits for the page's report, sent as it loads.
 */
async function runTask(session: string, text: string, signIn = false): Promise<string[]> {
  const from = pages.records.length;
  const replies = signIn
    ? [{ ...act("click", { x: 200, y: 130 }, "Signing in"), until: reported(from, 1) }, { ...act("done", { answer: "Signed in." }, "Finished"), until: reported(from, 2) }]
    : [{ ...act("done", { answer: "Looked." }, "Finished"), until: reported(from, 1) }];
  model.route((r) => planningText(r).includes(`Task: ${text}`), ...replies);
  const events = await openStream(app.url, session, 0);
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text, start_url: pages.url("account.html") });
  expect(await events.waitForEnd(json.task_id)).toMatchObject({ type: "task.completed" });
  events.close();
  return reported(from, signIn ? 2 : 1);
}

describe("a chat's sign-ins", () => {
  it("carry to the chat's next task, not to another chat's, and not past the chat's deletion", async () => {
    expect(await runTask("s-signed", "sign in to the account", true)).toEqual(["account:-", "account:ada"]);
    expect(await runTask("s-signed", "open the account again")).toEqual(["account:ada"]);
    expect(await runTask("s-other", "open the account in another chat")).toEqual(["account:-"]);

    expect((await app.api("DELETE", "/api/sessions/s-signed")).status).toBe(204);
    expect(await runTask("s-signed", "open the account after deleting the chat")).toEqual(["account:-"]);
  });
});
