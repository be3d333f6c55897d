// The chat for people who use a keyboard or a screen reader, on a laptop and on a phone: axe finds
// nothing serious in the main states; progress, a request for the person and the end of a task are
// announced; focus stays where the next thing happens (the prompt after sending and after Stop,
// the card after I've done it); the timeline is one tab stop moved with the arrows; and a run that
// ends while the person scrubs keeps its player where it was.
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { act } from "../support/scripted-model.ts";
import { expect, test, type ChatPage } from "./fixtures.ts";
import { gate } from "../support/gate.ts";

const SIZES = [
  { name: "laptop", viewport: { width: 1280, height: 800 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
];

/** axe over the whole page: no serious or critical violation, each named with where it is. */
async function expectAccessible(page: Page, state: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${state}: ${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`)).toEqual([]);
}

const polite = (chat: ChatPage) => chat.page.getByTestId("announce-polite");
const assertive = (chat: ChatPage) => chat.page.getByTestId("announce-assertive");

for (const { name, viewport } of SIZES) {
  test.describe(`on a ${name}`, () => {
    test.use({ viewport });

    test("axe finds nothing serious in the main states; progress and requests are announced; focus stays with the person", async ({ chat, model, pages, page }) => {
      await chat.open();
      await expect(page.getByRole("heading", { name: "What should the agent do?" })).toBeVisible();
      await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
      await expectAccessible(page, "empty chat");

      const waiting = gate();
      model.script(
        act("click", { x: 200, y: 130 }, "Pressing the button"),
        act("click", { x: 200, y: 130 }, "Pressing it again"),
        act("click", { x: 200, y: 130 }, "Pressing it a third time"),
        { ...act("needs_user", { answer: "Please **log in** first." }, "Waiting for the login"), until: waiting.held },
      );
      await chat.send("press the button three times", pages.url("form.html"));
      // The first message opens the chat's own page; the prompt still has focus for the next one.
      await expect(page).toHaveURL(/\/s\//);
      await expect(chat.prompt).toBeFocused();

      const card = chat.card();
      await expect(card.latestProgress).toHaveText("Pressing it a third time");
      await expect(polite(chat)).toHaveText("Step 3: Pressing it a third time");
      await card.progressToggle.click();
      await expect(card.timeline).toBeVisible();
      await expectAccessible(page, "running card with its timeline open");

      // The timeline is one tab stop.
      const items = card.timeline.getByRole("button");
      await expect(items).toHaveCount(3);
      // Tab from Stop, the header's last control, lands on the latest step; the arrows move.
      await card.stop.focus();
      await page.keyboard.press("Tab");
      await expect(items.nth(2)).toBeFocused();
      await page.keyboard.press("ArrowUp");
      await expect(items.nth(1)).toBeFocused();
      await expect(items.nth(1)).toHaveAttribute("aria-current", "step");
      await expect(card.screenPosition).toHaveText("Step 2 of 3");
      await page.keyboard.press("Home");
      await expect(items.nth(0)).toHaveAttribute("aria-current", "step");
      await page.keyboard.press("End");
      await expect(items.nth(2)).toBeFocused();
      expect(await items.evaluateAll((buttons) => buttons.map((b) => (b as HTMLElement).tabIndex))).toEqual([-1, -1, 0]);
      await page.keyboard.press("Tab");
      await expect(items.nth(1)).not.toBeFocused();
      expect(await card.timeline.evaluate((list) => list.contains(document.activeElement))).toBe(false);

      waiting.open();
      await expect(card.root).toHaveAttribute("data-status", "awaiting_user");
      await expect(assertive(chat)).toHaveText("The agent needs you: Please log in first.");
      await expectAccessible(page, "card that needs the person");

      // Stop on the request: the chat is free, and the prompt takes the next message.
      await card.root.getByRole("button", { name: "Stop the task" }).click();
      await expect(card.root).toHaveAttribute("data-status", "stopped");
      await expect(chat.prompt).toBeFocused();
      await expect(polite(chat)).toHaveText("The task was stopped. You stopped it.");

      model.script({ status: 401, body: JSON.stringify({ error: { message: "invalid api key" } }) });
      await chat.send("do anything", pages.url("form.html"));
      await expect(chat.card().root).toHaveAttribute("data-status", "failed");
      await expect(assertive(chat)).toContainText("The task failed: The AI model's service refused the API key.");
      await expectAccessible(page, "failed card");

      if (name === "phone") await page.getByRole("button", { name: "Open chats" }).click();
      const sidebar = page.getByRole("navigation", { name: "Chats" }).filter({ visible: true });
      await expect(sidebar.getByRole("link")).toHaveCount(1);
      await expectAccessible(page, "sidebar with chats");
    });

    test("a run that ends while the person scrubs keeps its player in place, with the answer above it", async ({ chat, model, pages, page }) => {
      const finishing = gate();
      model.script(
        act("click", { x: 200, y: 130 }, "Pressing the button"),
        act("click", { x: 200, y: 130 }, "Pressing it again"),
        { ...act("done", { answer: "Pressed it twice." }, "Finished"), until: finishing.held },
      );
      await chat.open();
      await chat.send("press the button twice", pages.url("form.html"));
      const card = chat.card();
      await expect(card.latestProgress).toHaveText("Pressing it again");
      await card.progressToggle.click();
      await card.timelineItem(0).click();
      await expect(card.screenPosition).toHaveText("Step 1 of 2");
      // The person holds the pointer on the scrubber.
      await card.scrubber.scrollIntoViewIfNeeded();
      const before = await card.scrubber.boundingBox();
      await page.mouse.move(before!.x + before!.width / 2, before!.y + before!.height / 2);

      finishing.open();
      await expect(card.root).toHaveAttribute("data-status", "completed");
      await expect(polite(chat)).toHaveText("The task is done. Pressed it twice.");
      await expect(card.answer).toHaveText("Pressed it twice.");
      await expect(card.timeline).toBeVisible();
      await expect(card.timelineItem(0)).toHaveAttribute("aria-current", "step");
      // The answer's step joins the timeline; the person stays on the step they chose.
      await expect(card.screenPosition).toHaveText("Step 1 of 3");
      const after = await card.scrubber.boundingBox();
      expect(Math.abs(after!.y - before!.y)).toBeLessThan(4);
    });

    test("after I've done it, focus stays on the same card as it runs on and ends", async ({ chat, model, pages, page }) => {
      const resumed = gate();
      model.script(
        act("needs_user", { answer: "Please log in." }, "Waiting for the login"),
        { ...act("done", { answer: "Logged in." }, "Finished"), until: resumed.held },
      );
      await chat.open();
      await chat.send("log in for me", pages.url("form.html"));
      const card = chat.card();
      await expect(card.root).toHaveAttribute("data-status", "awaiting_user");
      await card.root.getByRole("button", { name: "I've done it" }).click();
      await expect(card.root).toHaveAttribute("data-status", "running");
      await expect(card.progressToggle).toBeFocused();
      await expect(polite(chat)).toHaveText("The agent carries on.");
      resumed.open();
      await expect(card.root).toHaveAttribute("data-status", "completed");
      expect(await card.root.evaluate((root) => root.contains(document.activeElement))).toBe(true);
      await expect(page.locator("body")).not.toBeFocused();
    });
  });
}
