// Choosing "My Chrome" with no extension connected: the prompt says how to connect one, with this
// server's address and the token to paste into the extension's popup; a task sent anyway fails
// with the same advice.
import { expect, test } from "./fixtures.ts";

test("My Chrome without an extension says how to connect one", async ({ chat, page }) => {
  await chat.open();
  await page.getByRole("combobox", { name: "What the task drives" }).selectOption("extension");
  const status = page.getByRole("status").filter({ hasText: "No Chrome is connected" });
  await expect(status).toBeVisible();
  const token = await page.locator('meta[name="easyagentcu-token"]').getAttribute("content");
  await expect(status).toContainText(token!);
  await expect(status).toContainText(new URL(page.url()).origin);

  await chat.send("look at my inbox");
  await expect(chat.card().root).toContainText("load it in Chrome");
});
