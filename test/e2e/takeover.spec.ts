// Takeover in the web UI on the embedded browser (seed 004 §2): the person presses Take over on
// the run card's screen, the agent stops after its step, the person clicks and types on the live
// view — and it reaches the real page — then Resume hands it back and the agent looks again. A
// task that waits for the person opens its live screen for them to act on.
import type { Locator } from "@playwright/test";
import { act, isChatTurn, planningText } from "../support/scripted-model.ts";
import { expect, test } from "./fixtures.ts";

/** Clicks a point of the page (1280×800 CSS pixels) on the screen as the card shows it, measured as it is clicked. */
async function clickOnScreen(surface: Locator, x: number, y: number) {
  const box = (await surface.boundingBox())!;
  await surface.click({ position: { x: (x / 1280) * box.width, y: (y / 800) * box.height } });
}

test("take over, type into the page through the live view, resume, and the agent sees it", async ({ chat, model, pages, page }) => {
  model.script(
    // The first step takes a while, so the person can ask for the screen during it.
    { ...act("move", { x: 600, y: 500 }, "Looking at the form"), delayMs: 1500 },
    act("done", { answer: "The field says hello there." }, "Finished"),
  );
  await chat.open();
  await chat.send("read what is typed in the field", pages.url("form.html"));

  const card = chat.card();
  await card.root.getByRole("button", { name: "Take over" }).click();
  await expect(card.root).toHaveAttribute("data-status", "takeover");
  const surface = card.root.getByRole("application", { name: "The screen: your clicks and keys go to it" });
  await expect(surface).toBeVisible();
  // Large enough to work in: wider than the card's screen while the agent runs.
  expect((await surface.boundingBox())!.width).toBeGreaterThan(600);

  await clickOnScreen(surface, 250, 240);
  await page.keyboard.type("hello there");
  await pages.waitForRecord("typed:hello there");
  await expect(card.screenImage).toHaveAttribute("src", /live_/);

  await card.root.getByRole("button", { name: "Resume" }).click();
  await expect(card.root).toHaveAttribute("data-status", "completed");
  await expect(card.answer).toHaveText("The field says hello there.");
  const planned = model.requests.filter((r) => !isChatTurn(r) && planningText(r).includes("read what is typed"));
  expect(planningText(planned.at(-1)!)).toContain("The person took over the screen and handed it back");
});

test("a task waiting for the person opens its live screen to act on", async ({ chat, model, pages, page }) => {
  model.script(act("needs_user", { answer: "Please type your name into the field." }, "Asking"), act("done", { answer: "Thanks, Ada." }, "Finished"));
  await chat.open();
  await chat.send("sign me in", pages.url("form.html"));

  const card = chat.card();
  await expect(card.root).toHaveAttribute("data-status", "awaiting_user");
  const surface = card.root.getByRole("application");
  await expect(surface).toBeVisible();
  await expect(card.screenImage).toHaveAttribute("src", /live_/);
  await clickOnScreen(surface, 250, 240);
  await page.keyboard.type("Ada");
  await pages.waitForRecord("typed:Ada");
  await card.root.getByRole("button", { name: "I've done it" }).click();
  await expect(card.root).toHaveAttribute("data-status", "completed");
});
