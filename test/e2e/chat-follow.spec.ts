// The chat follows the work, at both sizes: it stays at the bottom while the person is there, and
// leaves them where they scrolled to, with a "New activity" pill that takes them back; a card that
// needs the person (a request to act, an approval) comes into view wherever they were, and so does
// the run that goes on after "I've done it"; reopening a chat lands on its latest reply.
import type { Locator, Page } from "@playwright/test";
import { DEFAULT_APPROVAL_POLICY } from "../../src/core/approval-policy.ts";
import { gate } from "../support/gate.ts";
import { act } from "../support/scripted-model.ts";
import { expect, test, type ChatPage } from "./fixtures.ts";
import { SIZES, snapshot } from "./ui-sizes.ts";

const LONG_ANSWER = Array.from({ length: 12 }, (_, i) => `Paragraph ${i + 1}: the agent looks at the screen, decides, acts and checks what changed.`).join("\n\n");

for (const size of SIZES) {
  test.describe(`at ${size.name} size`, () => {
    test.use({ ...size.use, appConfig: { approvals: DEFAULT_APPROVAL_POLICY } });

    test("sticks to the bottom while the person is there; scrolled up, a New activity pill takes them back", async ({ chat, model, pages, page }) => {
      await longChat(chat, model);
      // Parts 3 and 4 wait for the test, so a busy machine cannot run past what it checks.
      const [third, fourth] = [gate(), gate()];
      model.script(
        ...[1, 2].map((n) => ({ ...act("move", { x: 100 * n, y: 200 }, `Looking at part ${n}`), delayMs: 1200 })),
        { ...act("move", { x: 300, y: 200 }, "Looking at part 3"), until: third.held },
        { ...act("move", { x: 400, y: 200 }, "Looking at part 4"), until: fourth.held },
        { ...act("done", { answer: "Looked at every part." }, "Finished"), delayMs: 30_000 },
      );
      await chat.send("look at every part", pages.url("form.html"));
      const card = chat.card();
      for (const n of [1, 2]) {
        await expect(card.latestProgress).toHaveText(`Looking at part ${n}`);
        await expect.poll(() => distanceFromBottom(page)).toBeLessThan(48);
      }

      await scrollUp(page);
      const top = await scrollTop(page);
      third.open();
      await expect(card.latestProgress).toHaveText("Looking at part 3");
      const pill = page.getByRole("button", { name: "New activity" });
      await expect(pill).toBeVisible();
      // The person is left where they were reading.
      expect(Math.abs((await scrollTop(page)) - top)).toBeLessThan(5);
      await snapshot(page, `new-activity-${size.name}`);
      await pill.click();
      await expect(pill).toBeHidden();
      await expect.poll(() => distanceFromBottom(page)).toBeLessThan(48);
      // Back at the bottom, it sticks again.
      fourth.open();
      await expect(card.latestProgress).toHaveText("Looking at part 4");
      await expect.poll(() => distanceFromBottom(page)).toBeLessThan(48);
      await card.stop.click();
      await expect(card.root).toHaveAttribute("data-status", "stopped");
    });

    test("a small turn of the wheel up is kept while the chat grows below", async ({ chat, model, page }) => {
      await longChat(chat, model);
      const scroller = page.getByTestId("chat-scroller");
      // Something arrives below (a step, a reply): the chat grows, and follows while the person is at the bottom.
      const arrive = (height: number) =>
        scroller.evaluate((element, height) => {
          const arrived = document.createElement("p");
          arrived.style.height = `${height}px`;
          arrived.textContent = "Something new";
          element.firstElementChild!.appendChild(arrived);
        }, height);
      await arrive(1000);
      await expect.poll(() => distanceFromBottom(page)).toBeLessThan(1);
      const box = (await scroller.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + 40);
      // Less than the slack that counts as the bottom: the person still asked to go up.
      await page.mouse.wheel(0, -30);
      await expect.poll(() => distanceFromBottom(page)).toBeGreaterThan(20);
      await arrive(200);
      // The chat has seen it grow (its resize observer runs before the next frame is drawn).
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      expect(await distanceFromBottom(page)).toBeGreaterThan(200);
    });

    test("a wheel over something inside the chat that scrolls itself (a step list) leaves the chat following", async ({ chat, model, page }) => {
      await longChat(chat, model);
      const scroller = page.getByTestId("chat-scroller");
      await scroller.evaluate((element) => {
        const list = document.createElement("div");
        list.dataset.testid = "inner-list";
        list.style.cssText = "height: 120px; overflow-y: auto";
        list.innerHTML = `<div style="height: 1000px">A long list</div>`;
        element.firstElementChild!.appendChild(list);
        list.scrollTop = list.scrollHeight;
      });
      await expect.poll(() => distanceFromBottom(page)).toBeLessThan(1);
      const box = (await page.getByTestId("inner-list").boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.wheel(0, -300);
      await expect.poll(() => page.getByTestId("inner-list").evaluate((list) => list.scrollHeight - list.scrollTop - list.clientHeight)).toBeGreaterThan(100);
      await scroller.evaluate((element) => {
        const arrived = document.createElement("p");
        arrived.style.height = "200px";
        element.firstElementChild!.appendChild(arrived);
      });
      await expect.poll(() => distanceFromBottom(page)).toBeLessThan(1);
    });

    test("a request to act comes into view wherever the person was, and so does the run after I've done it", async ({ chat, model, pages, page }) => {
      await longChat(chat, model);
      // The card comes once the person has scrolled away: on a busy machine the wheel alone can take
      // seconds, and a card that came meanwhile would be scrolled off by the person's own wheel.
      const scrolled = gate();
      model.script(
        { ...act("move", { x: 200, y: 130 }, "Looking at the login"), delayMs: 800 },
        { ...act("needs_user", { answer: "Please **log in** in the browser, then press the button below." }, "Waiting for the login"), until: scrolled.held, delayMs: 300 },
        { ...act("click", { x: 200, y: 130 }, "Pressing the button"), delayMs: 1500 },
        { ...act("done", { answer: "Logged in and pressed the button." }, "Finished"), delayMs: 30_000 },
      );
      await chat.send("log in for me", pages.url("form.html"));
      const card = chat.card();
      await expect(card.latestProgress).toHaveText("Looking at the login");
      await scrollUp(page);
      scrolled.open();

      await expect(card.root).toHaveAttribute("data-status", "awaiting_user");
      const done = card.root.getByRole("button", { name: "I've done it" });
      await expect.poll(() => inChat(page, done)).toBe(true);
      await expect.poll(() => inChat(page, card.answer)).toBe(true);
      await snapshot(page, `needs-user-${size.name}`);

      await scrollUp(page);
      await done.click();
      await expect(card.root).toHaveAttribute("data-status", "running");
      await expect(card.latestProgress).toHaveText("Pressing the button");
      await expect.poll(() => inChat(page, card.root.getByTestId("run-header"))).toBe(true);
      // On a laptop the screen is on the stage beside the chat, in view whatever the chat's scroll.
      if (size.name === "desktop") await expect(card.screen).toBeInViewport({ ratio: 1 });
      else await expect.poll(() => inChat(page, card.screen)).toBe(true);
      await snapshot(page, `resumed-${size.name}`);
      await card.stop.click();
    });

    test("at the bottom, a card that asks and the run after I've done it keep the chat following", async ({ chat, model, pages, page }) => {
      await longChat(chat, model);
      model.script(
        act("move", { x: 200, y: 130 }, "Looking at the login"),
        act("needs_user", { answer: "Please log in in the browser, then press the button below." }, "Waiting for the login"),
        { ...act("click", { x: 200, y: 130 }, "Pressing the button"), delayMs: 500 },
        { ...act("done", { answer: "Logged in and pressed the button." }, "Finished"), delayMs: 1500 },
      );
      await chat.send("log in for me", pages.url("form.html"));
      const card = chat.card();
      await expect(card.root).toHaveAttribute("data-status", "awaiting_user");
      await card.root.getByRole("button", { name: "I've done it" }).click();
      await expect(card.root).toHaveAttribute("data-status", "completed");
      await expect(card.answer).toContainText("Logged in");
      await expect.poll(() => distanceFromBottom(page)).toBeLessThan(1);
      await expect(page.getByRole("button", { name: "Scroll to the latest message" })).toHaveCount(0);
    });

    test("an approval comes into view wherever the person was", async ({ chat, model, pages, page }) => {
      await longChat(chat, model);
      // As above, the approval comes once the person has scrolled away.
      const scrolled = gate();
      model.script(
        { ...act("move", { x: 180, y: 120 }, "Finding the button"), delayMs: 800 },
        { ...act("click", { x: 180, y: 120 }, "Deleting the account"), until: scrolled.held, delayMs: 300 },
        act("done", { answer: "Done." }, "Finished"),
      );
      await chat.send("delete my account", pages.url("approvals.html"));
      const card = chat.card();
      await expect(card.latestProgress).toHaveText("Finding the button");
      await scrollUp(page);
      scrolled.open();
      await expect(card.root).toHaveAttribute("data-status", "awaiting_user");
      await expect.poll(() => inChat(page, card.root.getByRole("button", { name: "Deny" }))).toBe(true);
      await snapshot(page, `approval-${size.name}`);
      await card.root.getByRole("button", { name: "Deny" }).click();
      await expect(card.root).toHaveAttribute("data-status", "completed");
    });

    test("reopening a chat lands on its latest reply, every time", async ({ chat, model, pages, page }) => {
      await longChat(chat, model);
      model.script(act("click", { x: 200, y: 130 }, "Pressing the button"), act("done", { answer: "Pressed it." }, "Finished"));
      await chat.send("press the button", pages.url("form.html"));
      await expect(chat.card().root).toHaveAttribute("data-status", "completed");
      model.chat({ chat: { text: "That was the last thing to do." } });
      await chat.send("anything else?");
      const latest = page.getByTestId("answer-message").last();
      await expect(latest).toHaveText("That was the last thing to do.");
      const address = page.url();

      for (let attempt = 0; attempt < 3; attempt++) {
        await page.goto(address);
        await expect(latest).toHaveText("That was the last thing to do.");
        await page.waitForFunction(() => [...document.images].every((image) => image.complete));
        await expect.poll(() => inChat(page, latest)).toBe(true);
        await expect.poll(() => distanceFromBottom(page)).toBeLessThan(48);
      }
      await snapshot(page, `reopened-${size.name}`);
    });
  });
}

/** A question with a long answer, so that the chat is taller than the screen. */
async function longChat(chat: ChatPage, model: import("../support/scripted-model.ts").ScriptedModel): Promise<void> {
  model.chat({ chat: { text: LONG_ANSWER } });
  await chat.open();
  await chat.send("how does the agent work?");
  await expect(chat.page.getByTestId("answer-message")).toContainText("Paragraph 12");
}

/** The person turns the wheel up over the chat, to read what came before. */
async function scrollUp(page: Page): Promise<void> {
  const box = (await page.getByTestId("chat-scroller").boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + 40);
  for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -1500);
  await expect.poll(() => distanceFromBottom(page)).toBeGreaterThan(300);
}

function scrollTop(page: Page): Promise<number> {
  return page.getByTestId("chat-scroller").evaluate((element) => element.scrollTop);
}

function distanceFromBottom(page: Page): Promise<number> {
  return page.getByTestId("chat-scroller").evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight);
}

/** Whether the element lies inside the chat's visible area, not above it or under the prompt. */
async function inChat(page: Page, element: Locator): Promise<boolean> {
  const box = await element.boundingBox();
  const view = await page.getByTestId("chat-scroller").boundingBox();
  if (!box || !view) return false;
  return box.y >= view.y - 1 && box.y + box.height <= view.y + view.height + 1;
}
