// A dropped event stream: the UI says so, reconnects from the last event it saw, and shows
// everything that happened meanwhile, once.
import { act } from "../support/scripted-model.ts";
import { ChatPage, expect, test } from "./fixtures.ts";
import { startTcpProxy } from "./tcp-proxy.ts";

// While the network is cut, the browser reports the failed reconnection attempts.
test.use({ allowedConsoleErrors: [/net::ERR_/] });

test("a lost connection shows a banner, resumes with Last-Event-ID and misses nothing", async ({ app, model, pages, page }) => {
  const proxy = await startTcpProxy(app.url);
  const chat = new ChatPage(page, app, proxy.url);
  model.script(
    act("click", { x: 200, y: 130 }, "Pressing the button"),
    { ...act("type", { text: "hi" }, "Typing hi"), delayMs: 1500 },
    act("done", { answer: "All done." }, "Finished"),
  );
  const streams: Promise<{ url: string; lastEventId: string | undefined; answered: boolean }>[] = [];
  page.on("request", (request) => {
    if (!request.url().includes("/api/chat/stream")) return;
    streams.push(Promise.all([request.allHeaders(), request.response()]).then(([headers, response]) => ({ url: request.url(), lastEventId: headers["last-event-id"], answered: response !== null })));
  });
  await chat.open();
  await chat.send("press and type", pages.url("form.html"));
  const card = chat.card();
  await expect(card.latestProgress).toHaveText("Pressing the button");

  proxy.cut();
  await expect(page.getByRole("status").filter({ hasText: "Connection lost" })).toBeVisible();
  const taskId = await chat.onlyTaskId();
  await expect.poll(async () => (await chat.task(taskId)).task.status).toBe("completed");
  await expect(card.root).toHaveAttribute("data-status", "running");

  proxy.restore();
  await expect(card.root).toHaveAttribute("data-status", "completed");
  await expect(page.getByText("Connection lost")).toHaveCount(0);
  await expect(card.answer).toHaveText("All done.");
  await card.root.getByRole("button", { name: "Show 3 steps" }).click();
  await expect(card.timeline.getByRole("button")).toHaveText([/Pressing the button/, /Typing hi/, /Finished/]);

  // Every stream after the first resumed after an event it had already seen. An attempt made while
  // the network was cut (the cut outlasts the browser's retry interval on a slow machine) never
  // reached the server, and its headers come back without Last-Event-ID.
  const resumedAfter = (await Promise.all(streams)).slice(1).filter((s) => s.answered).map((s) => Number(s.lastEventId ?? new URL(s.url).searchParams.get("last_event_id")));
  expect(resumedAfter.length).toBeGreaterThan(0);
  expect(resumedAfter.every((id) => id > 0)).toBe(true);
  await proxy.close();
});
