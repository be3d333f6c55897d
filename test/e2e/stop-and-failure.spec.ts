// Stop ends a task at any moment, and a failed task says why; both stay on the card.
import { act, isChatTurn } from "../support/scripted-model.ts";
import { expect, test } from "./fixtures.ts";

test("Stop ends a task during a slow step and says so", async ({ chat, model, pages }) => {
  model.script(act("click", { x: 200, y: 130 }, "Pressing the button"), { ...act("done", { answer: "never" }), delayMs: 30_000 });
  await chat.open();
  await chat.send("press the button, slowly", pages.url("form.html"));
  const card = chat.card();
  await expect(card.latestProgress).toHaveText("Pressing the button");
  await expect.poll(() => model.requests.filter((r) => !isChatTurn(r)).length).toBe(2);

  await card.stop.click();
  // Well before the model would answer (30 s): Stop does not wait for it.
  await expect(card.root).toHaveAttribute("data-status", "stopped", { timeout: 15_000 });
  await expect(card.root.getByTestId("stopped")).toContainText("The task was stopped");
  await expect(card.root.getByTestId("stop-reason")).toHaveText("You stopped it.");
  await expect(card.stop).toHaveCount(0);
  await card.root.getByRole("button", { name: "Show 1 step" }).click();
  await expect(card.timeline.getByRole("button")).toHaveText([/Pressing the button/]);

  // The session is free again.
  model.script(act("done", { answer: "Second task done." }));
  await chat.send("and now something else", pages.url("form.html"));
  await expect(chat.card(1).answer).toHaveText("Second task done.");
});

test("a failed task shows the reason", async ({ chat, model, pages }) => {
  model.script({ status: 401, body: JSON.stringify({ error: { message: "invalid api key" } }) });
  await chat.open();
  await chat.send("do anything", pages.url("form.html"));
  const card = chat.card();
  await expect(card.root).toHaveAttribute("data-status", "failed");
  await expect(card.root.getByTestId("failure")).toContainText("The task failed");
  await expect(card.root.getByTestId("failure-reason")).toContainText("refused the API key");
  // What the server said stays for developers, folded.
  await expect(card.root.getByTestId("error-details")).toContainText("HTTP 401");
  await expect(card.root.getByTestId("error-details")).toContainText("MODEL_HTTP_ERROR");
});

test("a chat sends nothing while the assistant is answering, and says why", async ({ chat, model, page }) => {
  model.chat({ chat: { text: "Let me think." }, delayMs: 30_000 });
  await chat.open();
  await chat.send("what is two and two?");
  await expect(page.getByRole("button", { name: "Stop answering" })).toBeVisible();
  await chat.send("and three and three?");
  await expect(page.getByRole("status").filter({ hasText: "still answering" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Send" })).toBeDisabled();
  await expect(chat.prompt).toHaveValue("and three and three?");
  await page.getByRole("button", { name: "Stop answering" }).click();
  await expect(page.getByRole("button", { name: "Send" })).toBeEnabled();
});

test.describe("with one task at a time (MAX_CONCURRENT_TASKS=1)", () => {
  test.use({ appConfig: { limits: { maxConcurrentTasks: 1 } } });

  test("a task sent while another runs says it waits its turn, and can be called off", async ({ chat, model, pages, app }) => {
    model.script({ ...act("done", { answer: "never" }), delayMs: 30_000 });
    const other = await app.api("POST", "/api/chat/send", { mode: "task", session_id: "s-elsewhere", text: "hold the only place", start_url: pages.url("form.html") });
    expect(other.status).toBe(202);
    await expect.poll(() => model.requests.filter((r) => !isChatTurn(r)).length).toBe(1);

    await chat.open();
    await chat.send("press the button", pages.url("form.html"));
    const queued = chat.page.getByTestId("queued-run");
    await expect(queued).toContainText("Waiting for a running task to end…");
    await expect(chat.runCards).toHaveCount(0);
    const row = chat.page.getByTestId("session-row").filter({ has: chat.page.getByRole("link", { name: "press the button" }) });
    await expect(row.getByTestId("session-status")).toHaveText("Waiting");
    await queued.getByRole("button", { name: "Don't run it" }).click();
    await expect(chat.card().root).toHaveAttribute("data-status", "stopped");
    await expect(queued).toHaveCount(0);
    await expect(row.getByTestId("session-status")).toHaveText("Stopped");
    expect(model.requests.filter((r) => !isChatTurn(r))).toHaveLength(1);
  });
});
