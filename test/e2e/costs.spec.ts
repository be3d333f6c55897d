// What a task cost, where a person looks: each step's money beside its tokens in the timeline,
// the task's total on its card, the chat's total in the header; nothing for a model without a price.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { act } from "../support/scripted-model.ts";
import { expect, test } from "./fixtures.ts";

// $2 per million tokens in, $10 out: each scripted answer (1,200 in, 60 out) costs $0.003.
const prices = path.join(mkdtempSync(path.join(tmpdir(), "prices-")), "prices.json");
writeFileSync(prices, JSON.stringify([{ model: "scripted-vl", input_per_mtok: 2, output_per_mtok: 10 }]));

test.describe("with a price for the model", () => {
  test.use({ appConfig: { prices } });

  test("shows each step's cost, the task's and the chat's", async ({ chat, model, pages, page }) => {
    model.script(act("click", { x: 200, y: 130 }, "Pressing the button"), act("done", { answer: "Pressed." }, "Finished"));
    await chat.open();
    await chat.send("press the button", pages.url("form.html"));
    const card = chat.card();
    await expect(card.root).toHaveAttribute("data-status", "completed");
    await expect(card.root.getByTestId("task-cost")).toHaveText(/\$0\.006$/);
    await expect(page.getByTestId("chat-cost")).toHaveText(/\$0\.006$/);
    await card.root.getByRole("button", { name: "Show 2 steps" }).click();
    await card.timelineItem(0).click();
    await expect(card.root.getByTestId("step-cost")).toContainText("1.2k tokens in, 60 out · $0.003");
    await page.screenshot({ path: path.join(test.info().outputDir, "costs.png") });
  });
});

test("says nothing about money for a model without a price", async ({ chat, model, pages, page }) => {
  model.script(act("click", { x: 200, y: 130 }, "Pressing the button"), act("done", { answer: "Pressed." }, "Finished"));
  await chat.open();
  await chat.send("press the button", pages.url("form.html"));
  const card = chat.card();
  await expect(card.root).toHaveAttribute("data-status", "completed");
  await card.root.getByRole("button", { name: "Show 2 steps" }).click();
  await card.timelineItem(0).click();
  await expect(card.root.getByTestId("step-cost")).toContainText("1.2k tokens in, 60 out");
  await expect(page.getByText("$")).toHaveCount(0);
});
