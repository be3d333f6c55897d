// A long run at both sizes: the card's header keeps its Stop in view while the person scrolls
// through the open timeline, its progress text wraps rather than being cut to a word or two, and
// the scrubber's labels thin out so that none run into another when 15 nodes sit close together.
// In the narrow chat column beside the stage, the header's arrow keeps to the line of its status.
import type { Locator } from "@playwright/test";
import { gate } from "../support/gate.ts";
import { act } from "../support/scripted-model.ts";
import { expect, test } from "./fixtures.ts";
import { SIZES, snapshot } from "./ui-sizes.ts";

const STEPS = 15;
const progress = (n: number) => `Checking row ${n} of the invoice table and the download link beside it`;

for (const size of SIZES) {
  test.describe(`at ${size.name} size`, () => {
    test.use(size.use);

    test("the header keeps Stop in view, its progress wraps, and 15 steps' labels never collide", async ({ chat, model, pages, page }) => {
      model.script(
        ...Array.from({ length: STEPS }, (_, i) => act("move", { x: 60 + 20 * i, y: 200 + 10 * i }, progress(i + 1))),
        { ...act("done", { answer: "Checked every row." }, "Finished"), delayMs: 60_000 },
      );
      await chat.open();
      await chat.send("check every invoice row", pages.url("form.html"));
      const card = chat.card();
      await expect(card.scrubber).toHaveAttribute("aria-valuemax", String(STEPS), { timeout: 45_000 });

      // The whole latest progress shows, over more than one line on a phone.
      await expect(card.latestProgress).toHaveText(progress(STEPS));
      expect(await card.latestProgress.evaluate((element) => element.scrollHeight <= element.clientHeight + 1)).toBe(true);
      const text = (await card.latestProgress.boundingBox())!;
      if (size.name === "phone") expect(text.height).toBeGreaterThan(30);

      await expect(labelsOverlap(card.root)).resolves.toEqual([]);
      expect(await card.root.getByTestId("scrubber-label").count()).toBeGreaterThanOrEqual(4);

      // With the timeline open, the person reads down the card: the header and Stop stay at the top.
      await card.progressToggle.click();
      await expect(card.timeline.getByRole("button")).toHaveCount(STEPS);
      await card.scrubber.scrollIntoViewIfNeeded();
      await card.scrubber.press("Home");
      await card.scrubber.press("ArrowRight");
      await card.scrubber.press("ArrowRight");
      await expect(card.screenPosition).toHaveText(`Step 3 of ${STEPS}`);
      await page.getByTestId("chat-scroller").evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
      const header = (await card.root.getByTestId("run-header").boundingBox())!;
      const cardBox = (await card.root.boundingBox())!;
      const scroller = (await page.getByTestId("chat-scroller").boundingBox())!;
      // Where the card's top has gone above the chat (on a phone, or in the chat's column beside the
      // stage on a laptop), its header has not.
      if (cardBox.y < scroller.y - 1) expect(Math.abs(header.y - scroller.y)).toBeLessThan(2);
      else expect(cardBox.y + cardBox.height).toBeLessThanOrEqual(scroller.y + scroller.height + 1);
      await expect(card.stop).toBeInViewport();
      await expect(labelsOverlap(card.root)).resolves.toEqual([]);
      await snapshot(page, `long-run-${size.name}`);

      await card.stop.click();
      await expect(card.root).toHaveAttribute("data-status", "stopped");
    });
  });
}

/** Pairs of scrubber labels whose boxes touch, as "a|b" texts. */
async function labelsOverlap(root: Locator): Promise<string[]> {
  const labels = await root.getByTestId("scrubber-label").evaluateAll((elements) =>
    elements.map((element) => {
      const box = element.getBoundingClientRect();
      return { text: element.textContent ?? "", left: box.left, right: box.right };
    }),
  );
  const sorted = labels.sort((a, b) => a.left - b.left);
  const touching: string[] = [];
  for (let i = 1; i < sorted.length; i++) if (sorted[i]!.left < sorted[i - 1]!.right + 2) touching.push(`${sorted[i - 1]!.text}|${sorted[i]!.text}`);
  return touching;
}

test("in the chat's column beside the stage, the header's arrow stays on the line of its status while the task works", async ({ chat, model, pages, page }) => {
  const held = gate();
  model.script(act("move", { x: 600, y: 500 }, "Looking at the form"), { ...act("done", { answer: "Done." }, "Finished"), until: held.held });
  await chat.open();
  await chat.send("read the form", pages.url("form.html"));
  const card = chat.card();
  await expect(card.latestProgress).toHaveText("Looking at the form");
  await expect(card.root.getByTestId("run-activity")).toContainText(/\d\ss/);
  const header = card.root.getByTestId("run-header");
  const status = (await header.getByText("Working", { exact: true }).boundingBox())!;
  const arrow = (await card.progressToggle.locator("svg").last().boundingBox())!;
  await snapshot(page, "header-beside-stage-desktop");
  expect(Math.abs(arrow.y + arrow.height / 2 - (status.y + status.height / 2))).toBeLessThan(4);
  held.open();
  await expect(card.root).toHaveAttribute("data-status", "completed");
});
