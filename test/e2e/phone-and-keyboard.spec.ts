// On a phone (390×844) and with the keyboard alone: the drawer, the prompt's Enter and
// Shift+Enter, attachments dropped onto the chat, and a run card that fits the screen.
import { gate } from "../support/gate.ts";
import { act } from "../support/scripted-model.ts";
import { expect, test } from "./fixtures.ts";

test.use({ viewport: { width: 390, height: 844 } });

test("a phone-sized chat works by keyboard, takes dropped files and fits the screen", async ({ chat, model, pages, page }) => {
  // The task finishes once the scrubber has been tried while it runs (a busy machine is slow to get there).
  const scrubbed = gate();
  model.script(
    act("click", { x: 200, y: 130 }, "Pressing the button"),
    { ...act("done", { answer: "Read your notes and pressed the button." }, "Finished"), until: scrubbed.held, delayMs: 300 },
  );
  await chat.open();
  await expect(page.getByRole("navigation", { name: "Chats" })).toBeHidden();
  await page.getByRole("button", { name: "Open chats" }).click();
  await expect(page.getByRole("navigation", { name: "Chats" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("navigation", { name: "Chats" })).toBeHidden();

  const dataTransfer = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(["buy milk"], "notes.txt", { type: "text/plain" }));
    return transfer;
  });
  const dropZone = page.getByTestId("chat-drop-zone");
  await dropZone.dispatchEvent("dragenter", { dataTransfer });
  await expect(page.getByText("Drop files to attach them")).toBeVisible();
  await dropZone.dispatchEvent("drop", { dataTransfer });
  await expect(page.getByText("Drop files to attach them")).toBeHidden();
  await expect(page.getByRole("list", { name: "Attachments" })).toHaveText(/notes\.txt/);

  await chat.startUrl.fill(pages.url("form.html"));
  await chat.prompt.focus();
  await page.keyboard.type("read my notes");
  await page.keyboard.press("Shift+Enter");
  await page.keyboard.type("then press the button");
  await page.keyboard.press("Enter");

  const bubble = page.getByTestId("user-message");
  await expect(bubble).toContainText("read my notes\nthen press the button");
  await expect(bubble.getByRole("list", { name: "Attachments" })).toHaveText(/notes\.txt/);
  const { json } = await chat.app.api<{ messages: { attachments: { name: string }[] }[] }>("GET", `/api/sessions/${chat.sessionId()}/messages`);
  expect(json.messages[0]!.attachments).toEqual([{ name: "notes.txt", mime_type: "text/plain" }]);

  const card = chat.card();
  await expect(card.latestProgress).toHaveText("Pressing the button");
  await expect(card.screenImage).toBeVisible();
  const box = await card.screen.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await card.scrubber.focus();
  await page.keyboard.press("ArrowLeft");
  await expect(card.screenPosition).toHaveText("Step 1 of 1");
  await page.keyboard.press("End");
  // The live node: its counter while the task runs.
  await expect(card.screenPosition).toHaveText("Live · step 1");
  scrubbed.open();
  await expect(card.root).toHaveAttribute("data-status", "completed");
  await expect(card.answer).toHaveText("Read your notes and pressed the button.");
});
