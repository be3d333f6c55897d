// Step 1 is shown on the screen its action was done on, the start page as the model saw it, with
// its marker on the link it clicked: never the blank page the browser opened on.
import { act } from "../support/scripted-model.ts";
import { expect, test } from "./fixtures.ts";

test("step 1's Before picture is the start page the model saw, marked where it clicked", async ({ chat, model, pages }) => {
  model.script(act("click", { x: 200, y: 130 }, "Opening the form"), { ...act("done", { answer: "The form is open." }, "Finished"), delayMs: 30_000 });
  await chat.open();
  await chat.send("open the form", pages.url("nav-link.html"));
  const card = chat.card();
  await expect(card.scrubber).toHaveAttribute("aria-valuemax", "1");

  await card.scrubber.press("Home");
  await expect(card.screenPosition).toHaveText("Step 1 of 1");
  await expect(card.root.getByRole("button", { name: "Before" })).toHaveAttribute("aria-pressed", "true");
  await expect(card.root.getByTestId("screen-url")).toHaveText(/nav-link\.html$/);
  await expect(card.marker).toBeVisible();
  // The marker is hollow: the label of what it marks reads through it.
  expect(await card.marker.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe("rgba(0, 0, 0, 0)");
  // The picture holds the page's text, not a blank page: some of its pixels are dark.
  const dark = await card.screenImage.evaluate(async (img: HTMLImageElement) => {
    await img.decode();
    const canvas = document.createElement("canvas");
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const context = canvas.getContext("2d")!;
    context.drawImage(img, 0, 0);
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
    let count = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i]! + data[i + 1]! + data[i + 2]! < 300) count++;
    return count;
  });
  expect(dark).toBeGreaterThan(50);
});
