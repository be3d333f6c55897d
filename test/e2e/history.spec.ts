// Everything on screen comes from the store: a reload rebuilds every card, a waiting task can
// still be answered after it, and the sidebar lists and reopens past chats.
import { act } from "../support/scripted-model.ts";
import { expect, test } from "./fixtures.ts";

test("a reload rebuilds every card from the store", async ({ chat, model, pages, page }) => {
  model.script(
    act("click", { x: 200, y: 130 }, "Pressing the button"),
    act("type", { text: "hello" }, "Typing hello"),
    act("done", { answer: "Typed **hello**." }, "Finished"),
    act("needs_user", { answer: "Please confirm in the browser." }, "Waiting for confirmation"),
  );
  await chat.open();
  await chat.send("type hello", pages.url("form.html"));
  await expect(chat.card(0).root).toHaveAttribute("data-status", "completed");
  await chat.send("then wait for me", pages.url("form.html"));
  await expect(chat.card(1).root).toHaveAttribute("data-status", "awaiting_user");
  const sessionId = chat.sessionId();

  await page.reload();
  await expect(chat.runCards).toHaveCount(2);
  await expect(page.getByTestId("user-message")).toHaveText(["type hello", "then wait for me"]);
  const first = chat.card(0);
  await expect(first.root).toHaveAttribute("data-status", "completed");
  await expect(first.answer).toHaveText("Typed hello.");
  await first.root.getByRole("button", { name: "Show 3 steps" }).click();
  await expect(first.timeline.getByRole("button")).toHaveText([/Pressing the button/, /Typing hello/, /Finished/]);
  await first.timelineItem(0).click();
  const { steps } = await chat.task((await chat.app.api<{ tasks: { id: string }[] }>("GET", `/api/sessions/${sessionId}/tasks`)).json.tasks[0]!.id);
  await expect(first.screenImage).toHaveAttribute("src", steps[0]!.screenshot!.url);

  // Scrolled away from the end, the chat offers a way back.
  await page.getByTestId("chat-scroller").evaluate((element) => element.scrollTo({ top: 0 }));
  await page.getByRole("button", { name: "Scroll to the latest message" }).click();
  await expect(page.getByRole("button", { name: "Scroll to the latest message" })).toBeHidden();
  await expect(chat.prompt).toBeInViewport();
  await expect(chat.card(1).root.getByRole("button", { name: "I've done it" })).toBeInViewport();

  const second = chat.card(1);
  await expect(second.answer).toHaveText("Please confirm in the browser.");
  model.script(act("done", { answer: "Confirmed." }, "Finished"));
  await second.root.getByRole("button", { name: "I've done it" }).click();
  await expect(second.answer).toHaveText("Confirmed.");

  await page.reload();
  await expect(page.getByTestId("user-message")).toHaveText(["type hello", "then wait for me", "I've done it"]);
  await expect(page.getByTestId("answer-message")).toHaveText("Please confirm in the browser.");
  await expect(chat.card(1).answer).toHaveText("Confirmed.");
});

test("the sidebar lists past chats and opens them; New chat starts an empty one", async ({ chat, model, pages, page }) => {
  model.script(act("done", { answer: "First." }), act("done", { answer: "Second." }));
  await chat.open();
  await chat.send("the first chat", pages.url("form.html"));
  await expect(chat.card().answer).toHaveText("First.");
  const firstUrl = page.url();

  const sidebar = page.getByRole("navigation", { name: "Chats" });
  await sidebar.getByRole("button", { name: "New chat" }).click();
  await expect(page.getByRole("heading", { name: "What should the agent do?" })).toBeVisible();
  await chat.send("the second chat", pages.url("form.html"));
  await expect(chat.card().answer).toHaveText("Second.");
  await expect(sidebar.getByRole("link")).toHaveText(["the second chat", "the first chat"]);
  await expect(sidebar.getByRole("link", { name: "the second chat" })).toHaveAttribute("aria-current", "page");

  await sidebar.getByRole("link", { name: "the first chat" }).click();
  expect(page.url()).toBe(firstUrl);
  await expect(page.getByTestId("user-message")).toHaveText(["the first chat"]);
  await expect(chat.card().answer).toHaveText("First.");
  await page.goBack();
  await expect(page.getByTestId("user-message")).toHaveText(["the second chat"]);
});
