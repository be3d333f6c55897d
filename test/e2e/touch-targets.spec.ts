// On a phone (390×844, touch) every control a finger presses is at least 44 × 44 px: the header,
// the composer and its attachments, the sidebar drawer, the model settings, an answer being
// written and the ways back to the bottom of the chat, and the run card while it works, shows a
// step, is enlarged, handed over, needs the person, asks for approval, ends and fails. A control
// under the size is named with what it measures, so one run lists them all.
import type { Locator, Page } from "@playwright/test";
import { DEFAULT_APPROVAL_POLICY } from "../../src/core/approval-policy.ts";
import { gate } from "../support/gate.ts";
import { act } from "../support/scripted-model.ts";
import { expect, test } from "./fixtures.ts";
import { SIZES, snapshot } from "./ui-sizes.ts";

const FINGER = 44;
const CONTROLS = "button, input, select, textarea, [role=button]";

/** The visible controls in `scope` smaller than a finger, as "name (width×height)". */
async function undersized(scope: Locator): Promise<string[]> {
  const controls = scope.locator(CONTROLS);
  const small: string[] = [];
  for (let i = 0; i < (await controls.count()); i++) {
    const control = controls.nth(i);
    if (!(await control.isVisible())) continue;
    const box = await control.boundingBox();
    if (!box || (box.width >= FINGER && box.height >= FINGER)) continue;
    const name = await control.evaluate(
      (element) =>
        element.getAttribute("aria-label") ||
        element.textContent?.trim() ||
        element.getAttribute("placeholder") ||
        `${element.tagName.toLowerCase()}${element.getAttribute("type") ? `[${element.getAttribute("type")}]` : ""}`,
    );
    small.push(`${name} (${Math.round(box.width)}×${Math.round(box.height)})`);
  }
  return small;
}

async function expectFingerSized(scope: Locator, state: string): Promise<void> {
  expect.soft(await undersized(scope), `controls under ${FINGER}×${FINGER} px: ${state}`).toEqual([]);
}

const whole = (page: Page) => page.locator("body");

test.use(SIZES[1].use);

test("the header, the composer, the drawer and the model settings take a finger", async ({ chat, model, pages, page }) => {
  await chat.open();
  await expect(chat.prompt).toBeVisible();
  await chat.prompt.fill("open the form page");
  await expectFingerSized(whole(page), "the empty chat");
  await snapshot(page, "touch-empty-phone");
  await page.locator("input[type=file]").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("buy milk") });
  await expect(page.getByRole("list", { name: "Attachments" })).toHaveText(/notes\.txt/);
  await expectFingerSized(whole(page), "a file attached to the message");
  await snapshot(page, "touch-attached-phone");
  await page.getByRole("button", { name: /^Remove/ }).click();
  await expect(page.getByRole("list", { name: "Attachments" })).toHaveCount(0);

  await page.getByRole("button", { name: "Model settings" }).click();
  const settings = page.getByRole("dialog", { name: "Model settings" });
  await expect(settings).toBeVisible();
  await expectFingerSized(settings, "the model settings");
  await page.keyboard.press("Escape");
  await expect(settings).toBeHidden();

  model.script(act("done", { answer: "The form page is open." }, "Finished"));
  await chat.send("open the form page", pages.url("form.html"));
  await expect(chat.card().root).toHaveAttribute("data-status", "completed");
  await expectFingerSized(whole(page), "a chat with a finished task");

  await page.getByRole("button", { name: "Open chats" }).click();
  const drawer = page.getByRole("dialog", { name: "Chats" });
  await expect(drawer.getByTestId("session-row")).toHaveCount(1);
  await expectFingerSized(drawer, "the sidebar drawer");
  await snapshot(page, "touch-drawer-phone");
  await drawer.getByRole("button", { name: /^Rename/ }).click();
  await expect(drawer.getByRole("textbox", { name: "Chat title" })).toBeFocused();
  await expectFingerSized(drawer, "renaming a chat");
  await page.keyboard.press("Escape");
  await drawer.getByRole("button", { name: /^Delete/ }).click();
  await expect(drawer.getByRole("group")).toBeVisible();
  await expectFingerSized(drawer, "confirming a delete");
});

test("the run card takes a finger while it works, needs the person, is handed over and ends", async ({ chat, model, pages, page }) => {
  const asked = gate();
  model.script(
    act("click", { x: 200, y: 130 }, "Pressing the button"),
    { ...act("click", { x: 200, y: 130 }, "Pressing it again"), until: asked.held },
    act("needs_user", { answer: "Please type your name into the field." }, "Asking"),
    act("done", { answer: "Thanks." }, "Finished"),
  );
  await chat.open();
  await chat.send("press the button twice, then ask me", pages.url("form.html"));
  const card = chat.card();
  await expect(card.latestProgress).toHaveText("Pressing the button");
  await card.progressToggle.click();
  await expect(card.timeline).toBeVisible();
  await expectFingerSized(whole(page), "a working card with its timeline open");
  await snapshot(page, "touch-running-phone");
  await card.timelineItem(0).click();
  await expect(card.screenPosition).toHaveText("Step 1 of 1");
  await expectFingerSized(whole(page), "a step chosen on the timeline, its Before and After");
  await card.scrubber.press("End");
  await expect(card.screenPosition).toHaveText("Live · step 1");

  await card.root.getByRole("button", { name: "Enlarge the screen" }).click();
  const focus = page.getByRole("dialog").filter({ has: page.getByRole("figure") });
  await expect(focus).toBeVisible();
  await expectFingerSized(focus, "the enlarged screen");
  await page.keyboard.press("Escape");
  await expect(focus).toBeHidden();

  await card.root.getByRole("button", { name: "Take over" }).click();
  asked.open();
  await expect(card.root).toHaveAttribute("data-status", "takeover");
  await expectFingerSized(whole(page), "a card the person has taken over");
  await card.root.getByRole("button", { name: "Resume" }).click();
  await expect(card.root).toHaveAttribute("data-status", "awaiting_user");
  await expectFingerSized(whole(page), "a card that needs the person");
  await snapshot(page, "touch-awaiting-phone");
  await card.root.getByRole("button", { name: "I've done it" }).click();
  await expect(card.root).toHaveAttribute("data-status", "completed");
  await expectFingerSized(whole(page), "a finished card");
});

test("a streaming answer's Stop answering and the chat's ways back to the bottom take a finger", async ({ chat, model, page }) => {
  const long = Array.from({ length: 12 }, (_, i) => `Paragraph ${i + 1}: the agent looks at the screen, decides, acts and checks what changed.`).join("\n\n");
  model.chat({ chat: { text: long } }, { chat: { text: long, chunkDelayMs: 60 } });
  await chat.open();
  await chat.send("what does the agent do?");
  await expect(page.getByTestId("answer-message")).toHaveText(/Paragraph 12/);
  await chat.send("and once more, slowly");
  await expect(page.getByTestId("streaming-answer")).toContainText("Paragraph 1");
  await expectFingerSized(whole(page), "an answer being written");

  const scroller = page.getByTestId("chat-scroller");
  const box = (await scroller.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + 40);
  for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -1500);
  await expect(page.getByRole("button", { name: "New activity" })).toBeVisible();
  await expectFingerSized(whole(page), "new activity below the place the person reads");
  await page.getByRole("button", { name: "Stop answering" }).click();
  await expect(page.getByTestId("streaming-answer")).toHaveCount(0);
  for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -1500);
  await expect(page.getByRole("button", { name: "Scroll to the latest message" })).toBeVisible();
  await expectFingerSized(whole(page), "the chat scrolled up");
});

test.describe("with approvals", () => {
  test.use({ appConfig: { approvals: DEFAULT_APPROVAL_POLICY } });

  test("an approval card and a failed card take a finger", async ({ chat, model, pages, page }) => {
    model.script(act("click", { x: 180, y: 120 }, "Deleting the account"), act("done", { answer: "Done." }, "Finished"));
    await chat.open();
    await chat.send("delete my account", pages.url("approvals.html"));
    const card = chat.card();
    await expect(card.root.getByRole("button", { name: "Allow" })).toBeVisible();
    await expectFingerSized(whole(page), "a card asking for approval");
    await snapshot(page, "touch-approval-phone");
    await card.root.getByRole("button", { name: "Deny" }).click();
    await expect(card.root).toHaveAttribute("data-status", "completed");

    model.script({ status: 401, body: JSON.stringify({ error: { message: "invalid api key" } }) });
    await chat.send("do anything", pages.url("form.html"));
    await expect(chat.card().root).toHaveAttribute("data-status", "failed");
    await expectFingerSized(whole(page), "a failed card");
  });
});
