// The chat assistant in the UI: a plain question's answer streams in as text with no run card;
// a task message shows its run card and then the assistant's reply below it; an answer that
// fails says why, and the chat takes the next message.
import { act } from "../support/scripted-model.ts";
import { expect, test } from "./fixtures.ts";

test("a plain question is answered as the text streams in, without a run card", async ({ chat, model, page }) => {
  const answer = "A computer-use agent looks at the screen, decides what to do next, and clicks and types for you — step by step, while you watch.";
  model.chat({ chat: { text: answer, chunkDelayMs: 150 } });
  await chat.open();
  await chat.send("What does a computer-use agent do?");

  const streaming = page.getByTestId("streaming-answer");
  await expect(streaming).toBeVisible();
  const partial = await streaming.innerText();
  expect(partial.length).toBeGreaterThan(0);
  expect(partial.length).toBeLessThan(answer.length);
  await expect(chat.prompt).toBeEnabled();
  await expect(page.getByTestId("answer-message")).toHaveText(answer);
  await expect(streaming).toHaveCount(0);
  await expect(chat.runCards).toHaveCount(0);

  await page.reload();
  await expect(page.getByTestId("answer-message")).toHaveText(answer);
  await expect(page.getByTestId("user-message")).toHaveText(["What does a computer-use agent do?"]);
});

test("Stop answering keeps what was shown and frees the chat", async ({ chat, model, page }) => {
  model.chat({ chat: { text: "Counting: one, two, three, four, five, six, seven, eight, nine, ten, eleven, twelve.", chunkDelayMs: 200 } });
  await chat.open();
  await chat.send("count to twelve, slowly");
  await expect(page.getByTestId("streaming-answer")).toContainText("Counting:");
  await page.getByRole("button", { name: "Stop answering" }).click();
  await expect(page.getByTestId("streaming-answer")).toHaveCount(0);
  await expect(page.getByTestId("answer-message")).toHaveText(/^Counting:/);
  const shown = await page.getByTestId("answer-message").innerText();
  expect(shown.length).toBeLessThan(80);
  model.chat({ chat: { text: "Ready." } });
  await chat.send("ready?");
  await expect(page.getByTestId("answer-message")).toHaveText([shown, "Ready."]);
});

test("a task message starts a run card, and the assistant answers from its result below it", async ({ chat, model, pages, page }) => {
  model.chat(
    { chat: { text: "I'll press it in the browser.", calls: [{ name: "computer_task", arguments: { task: "Press the button on the page", start_url: pages.url("form.html") } }] } },
    { chat: { text: "Done: the button is **pressed**." } },
  );
  model.script(act("click", { x: 200, y: 130 }, "Pressing the button"), act("done", { answer: "The button was pressed." }, "Finished"));
  await chat.open();
  await chat.send(`press the button on my form page, ${pages.url("form.html")}`);

  const card = chat.card();
  await expect(card.root).toHaveAttribute("data-status", "completed");
  await expect(page.getByTestId("answer-message")).toHaveText(["I'll press it in the browser.", "Done: the button is pressed."]);
  // The card keeps the answer in view; the reply below adds to it.
  await expect(card.answer).toBeVisible();
  await expect(card.answer).toHaveText("The button was pressed.");
  // The reply comes after the card.
  const replyBelowCard = await page.evaluate(() => {
    const cards = document.querySelectorAll('[data-testid="run-card"]');
    const answers = document.querySelectorAll('[data-testid="answer-message"]');
    const last = answers[answers.length - 1];
    return Boolean(cards[0] && last && cards[0].compareDocumentPosition(last) & Node.DOCUMENT_POSITION_FOLLOWING);
  });
  expect(replyBelowCard).toBe(true);
  await pages.waitForRecord("clicked");
});

test("an answer that fails says why, and the chat takes the next message", async ({ chat, model, page }) => {
  model.chat({ status: 400, body: JSON.stringify({ error: { message: "model not found" } }) });
  await chat.open();
  await chat.send("hello?");
  const failure = page.getByTestId("failed-answer");
  await expect(failure).toContainText("The assistant could not answer");
  await expect(failure).toContainText("The AI model's service returned an error.");
  await expect(failure.getByTestId("error-details")).toContainText("model not found");

  model.chat({ chat: { text: "Hello! How can I help?" } });
  await chat.send("hello again");
  await expect(page.getByTestId("answer-message")).toHaveText("Hello! How can I help?");
  await expect(failure).toBeVisible();
});
