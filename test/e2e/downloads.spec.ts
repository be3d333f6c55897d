// A file the agent downloaded is the person's: the run card lists it under the answer, and its
// link downloads the same bytes the page offered.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { act } from "../support/scripted-model.ts";
import { expect, test } from "./fixtures.ts";

const INVOICE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/pages/files/invoice-march.pdf");

test("the run card links the file the agent downloaded, and the link downloads it", async ({ chat, model, pages }) => {
  // The invoice link of downloads.html is at (200, 120).
  model.script(act("click", { x: 200, y: 120 }, "Downloading the invoice"), act("done", { answer: "The March invoice is downloaded." }, "Finished"));
  await chat.open();
  await chat.send("download the March invoice", pages.url("downloads.html"));

  const card = chat.card();
  await expect(card.root).toHaveAttribute("data-status", "completed");
  const files = card.root.getByTestId("run-files");
  const link = files.getByRole("link", { name: "invoice-march.pdf" });
  await expect(link).toBeVisible();
  await expect(files).toContainText("636 B");

  const [download] = await Promise.all([chat.page.waitForEvent("download"), link.click()]);
  expect(download.suggestedFilename()).toBe("invoice-march.pdf");
  const saved = await readFile((await download.path())!);
  expect(saved.equals(await readFile(INVOICE))).toBe(true);
});
