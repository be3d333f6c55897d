// While a task runs the live screen is the main surface: on a laptop it takes the stage beside
// the chat (at least 900 px wide, all of it in view, the chat and its prompt still there), on a
// phone it spans the width; when the person takes over or is asked to act it is at its largest at once.
import type { Page } from "@playwright/test";
import { gate } from "../support/gate.ts";
import { act } from "../support/scripted-model.ts";
import { expect, test, type RunCard } from "./fixtures.ts";
import { SIZES, snapshot } from "./ui-sizes.ts";

async function expectLarge(page: Page, card: RunCard, name: string) {
  await expect(card.screenImage).toBeVisible();
  await page.waitForFunction(() => [...document.images].every((image) => image.complete));
  const viewport = page.viewportSize()!;
  const screen = (await card.screenImage.boundingBox())!;
  const prompt = (await page.getByRole("textbox", { name: "Message" }).boundingBox())!;
  if (viewport.width >= 1024) {
    expect(screen.width).toBeGreaterThanOrEqual(900);
    expect(screen.y).toBeGreaterThanOrEqual(48);
    expect(screen.y + screen.height).toBeLessThanOrEqual(viewport.height);
    // The chat stays beside it, its prompt in view and free of the screen.
    expect(prompt.x + prompt.width).toBeLessThanOrEqual(screen.x);
    expect(prompt.y + prompt.height).toBeLessThanOrEqual(viewport.height);
    await expect(card.root.getByTestId("run-header").or(card.answer).first()).toBeInViewport();
  } else {
    expect(screen.x).toBeLessThanOrEqual(1);
    expect(screen.width).toBeGreaterThanOrEqual(viewport.width - 2);
  }
  await snapshot(page, name);
}

for (const size of SIZES) {
  test.describe(`at ${size.name} size`, () => {
    test.use(size.use);

    test("the running task's screen is the main surface, and stays so when the person takes over", async ({ chat, model, pages, page }) => {
      // The second step waits for the test, so the person asks for the screen during it.
      const askedForScreen = gate();
      model.script(
        act("move", { x: 600, y: 500 }, "Looking at the form"),
        { ...act("move", { x: 600, y: 520 }, "Looking again"), until: askedForScreen.held },
        { ...act("done", { answer: "Done." }, "Finished"), delayMs: 60_000 },
      );
      await chat.open();
      await chat.send("read the form", pages.url("form.html"));
      const card = chat.card();
      await expect(card.scrubber).toHaveAttribute("aria-valuemax", "1");
      await expectLarge(page, card, `stage-running-${size.name}`);

      await card.root.getByRole("button", { name: "Take over" }).click();
      askedForScreen.open();
      await expect(card.root).toHaveAttribute("data-status", "takeover");
      await expect(card.screen).toHaveAttribute("data-control", "person");
      await expectLarge(page, card, `stage-takeover-${size.name}`);
      await expect(card.root.getByRole("button", { name: "Resume" })).toBeInViewport();
    });

    test("a task asking the person to act opens its screen at its largest", async ({ chat, model, pages, page }) => {
      model.script(act("needs_user", { answer: "Please type your name into the field." }, "Asking"), { ...act("done", { answer: "Done." }, "Finished"), delayMs: 60_000 });
      await chat.open();
      await chat.send("sign me in", pages.url("form.html"));
      const card = chat.card();
      await expect(card.root).toHaveAttribute("data-status", "awaiting_user");
      await expect(card.screen).toHaveAttribute("data-control", "person");
      await expectLarge(page, card, `stage-act-${size.name}`);
    });

    test("the person pins the screen large: the enlarged view stays open through a request to act, done there", async ({ chat, model, pages, page }) => {
      const looked = gate();
      model.script(
        act("move", { x: 600, y: 500 }, "Looking at the form"),
        { ...act("needs_user", { answer: "Please type your name into the field." }, "Asking"), until: looked.held },
        { ...act("done", { answer: "Done." }, "Finished"), delayMs: 60_000 },
      );
      await chat.open();
      await chat.send("sign me in", pages.url("form.html"));
      const card = chat.card();
      await expect(card.scrubber).toHaveAttribute("aria-valuemax", "1");
      await card.root.getByRole("button", { name: "Enlarge the screen" }).click();
      const pinned = page.getByRole("dialog", { name: "The screen, enlarged" });
      await expect(pinned).toBeVisible();
      looked.open();
      await expect(card.root).toHaveAttribute("data-status", "awaiting_user");
      await expect(pinned).toBeVisible();
      await expect(pinned.getByRole("application", { name: "The screen: your clicks and keys go to it" })).toBeVisible();
      const screen = (await pinned.getByRole("figure", { name: "Screen" }).locator("img").boundingBox())!;
      expect(screen.width).toBeGreaterThanOrEqual(page.viewportSize()!.width >= 1024 ? 900 : page.viewportSize()!.width - 24);
      await pinned.getByRole("button", { name: "I've done it" }).click();
      await expect(card.root).toHaveAttribute("data-status", /running|completed/);
    });
  });
}
