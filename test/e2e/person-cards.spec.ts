// A card that needs the person comes into view whole, its heading and reason first, below the
// chat's header and above the prompt, at a laptop's size and a phone's: an approval (what it
// would press, the picture, Allow and Deny) and a request to act (the question, I've done it).
import type { Locator, Page } from "@playwright/test";
import { DEFAULT_APPROVAL_POLICY } from "../../src/core/approval-policy.ts";
import { act } from "../support/scripted-model.ts";
import { expect, test } from "./fixtures.ts";
import { SIZES, snapshot } from "./ui-sizes.ts";

/** The part of the chat a person sees: under the app's header, above the prompt. */
async function chatWindow(page: Page) {
  return (await page.getByTestId("chat-scroller").boundingBox())!;
}

async function expectInView(page: Page, ...parts: Locator[]) {
  const window = await chatWindow(page);
  for (const part of parts) {
    const box = (await part.boundingBox())!;
    expect(box.y, `${part} starts below the header`).toBeGreaterThanOrEqual(window.y);
    expect(box.y + box.height, `${part} ends above the prompt`).toBeLessThanOrEqual(window.y + window.height + 0.5);
  }
}

for (const size of SIZES) {
  test.describe(`at ${size.name} size`, () => {
    test.use({ ...size.use, appConfig: { approvals: DEFAULT_APPROVAL_POLICY } });

    test("an approval comes into view whole: its heading and reason, the picture, Allow and Deny", async ({ chat, model, pages, page }) => {
      model.script(
        act("move", { x: 600, y: 500 }, "Looking at the page"),
        act("move", { x: 600, y: 520 }, "Finding the button"),
        act("click", { x: 180, y: 120 }, "Deleting the account"),
        act("done", { answer: "Done." }, "Finished"),
      );
      await chat.open();
      await chat.send("delete my account", pages.url("approvals.html"));
      const card = chat.card();
      await expect(card.root).toHaveAttribute("data-status", "awaiting_user");
      const heading = card.root.getByText("Needs your approval");
      const shot = card.root.getByRole("img", { name: /The screen before/ });
      await expect(shot).toBeVisible();
      await page.waitForFunction(() => [...document.images].every((image) => image.complete));
      await expect(async () => {
        await expectInView(page, heading, card.answer, shot, card.root.getByRole("button", { name: "Allow" }), card.root.getByRole("button", { name: "Deny" }));
      }).toPass({ timeout: 10_000 });
      await snapshot(page, `approval-in-view-${size.name}`);
    });

    test("a request to act comes into view whole: the question and I've done it", async ({ chat, model, pages, page }) => {
      model.script(
        act("move", { x: 600, y: 500 }, "Looking at the page"),
        act("needs_user", { answer: "Please type your name into the field, then press the button below." }, "Asking"),
        act("done", { answer: "Thanks." }, "Finished"),
      );
      await chat.open();
      await chat.send("sign me in", pages.url("form.html"));
      const card = chat.card();
      await expect(card.root).toHaveAttribute("data-status", "awaiting_user");
      await expect(async () => {
        await expectInView(page, card.root.getByText("Needs your action"), card.answer, card.root.getByRole("button", { name: "I've done it" }));
      }).toPass({ timeout: 10_000 });
    });
  });
}
