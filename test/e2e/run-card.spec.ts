// A task streams into its run card: the card appears before the first step is done, steps
// arrive one by one, the timeline, the scrubber and the screen follow each other, and the card
// turns into the answer.
import { gate } from "../support/gate.ts";
import { act } from "../support/scripted-model.ts";
import { expect, test } from "./fixtures.ts";

test("the run card streams steps, replays them in sync, and becomes the answer", async ({ chat, model, pages }) => {
  // The last answer waits for the test, so the task is still running while the test looks around,
  // however busy the machine.
  const finish = gate();
  model.script(
    { ...act("click", { x: 200, y: 130 }, "Pressing the button"), delayMs: 1500 },
    { ...act("type", { text: "hello" }, "Typing hello"), delayMs: 1500 },
    { ...act("done", { answer: "I pressed the button and typed **hello**." }, "Finished"), until: finish.held },
  );
  await chat.open();
  await chat.send("press the button and type hello", pages.url("form.html"));

  const card = chat.card();
  await expect(card.root).toHaveAttribute("data-status", "running");
  // The first model reply is still delayed: no step has completed yet (the agent is starting, or thinking).
  await expect(card.latestProgress).toHaveText(/^(Starting|Thinking)…/);
  expect(pages.records).toEqual([]);
  await expect(card.screenImage).toHaveAttribute("src", /live_/);
  await expect(card.screenPosition).toHaveText("Live");

  await expect(card.latestProgress).toHaveText("Pressing the button");
  await expect(card.latestProgress).toHaveText("Typing hello");
  await expect(card.scrubber).toHaveAttribute("aria-valuemax", "2");

  await card.progressToggle.click();
  await expect(card.timeline.getByRole("button")).toHaveCount(2);
  await expect(card.timelineItem(0)).toContainText("Pressing the button");
  await expect(card.timelineItem(0)).toContainText("click (200, 130)");

  const { steps } = await chat.task(await chat.onlyTaskId());
  await card.timelineItem(0).click();
  await expect(card.timelineItem(0)).toHaveAttribute("aria-current", "step");
  // A step shows the screen its action was done on: for the first, the first live frame.
  await expect(card.screenImage).toHaveAttribute("src", /live_/);
  await expect(card.scrubber).toHaveAttribute("aria-valuenow", "0");
  await expect(card.screenPosition).toHaveText("Step 1 of 2");
  // The click happened at (200, 130) of a 1280×800 screenshot.
  await expect(card.marker).toHaveCSS("left", /px$/);
  const marker = await card.marker.boundingBox();
  const image = await card.screenImage.boundingBox();
  expect(((marker!.x + marker!.width / 2 - image!.x) / image!.width) * 1280).toBeCloseTo(200, -1);
  expect(((marker!.y + marker!.height / 2 - image!.y) / image!.height) * 800).toBeCloseTo(130, -1);
  // The step's own screenshot, after the click, is one click away.
  await card.root.getByRole("button", { name: "After" }).click();
  await expect(card.screenImage).toHaveAttribute("src", steps[0]!.screenshot!.url);
  await expect(card.marker).toHaveCount(0);

  await card.scrubber.press("ArrowRight");
  await expect(card.timelineItem(1)).toHaveAttribute("aria-current", "step");
  // Typing has no point to mark: the step shows what it left.
  await expect(card.screenImage).toHaveAttribute("src", steps[1]!.screenshot!.url);

  await card.dragScrubberTo(1);
  // Seed 003 §4: the live screen carries the step counter and the last action.
  await expect(card.scrubber).toHaveAttribute("aria-valuetext", "Live · step 2");
  await expect(card.screenPosition).toHaveText("Live · step 2");
  await expect(card.root.getByTestId("action-label")).toHaveText('type "hello"');
  await expect(card.screenImage).toHaveAttribute("src", /live_/);
  await expect(card.timeline.locator("[aria-current]")).toHaveCount(0);

  await card.dragScrubberTo(0);
  await expect(card.timelineItem(0)).toHaveAttribute("aria-current", "step");
  await expect(card.screenImage).toHaveAttribute("src", /live_/);
  await expect(card.marker).toBeVisible();

  // The person leaves the player (back to live, timeline closed), so the ended card becomes the
  // answer; one that ends mid-scrub keeps its player (accessibility.spec.ts).
  await card.scrubber.press("End");
  await card.progressToggle.click();
  await expect(card.root).toHaveAttribute("data-status", "running");
  finish.open();
  await expect(card.root).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
  await expect(card.answer).toHaveText("I pressed the button and typed hello.");
  await expect(card.answer.locator("strong")).toHaveText("hello");
  await expect(card.screen).toHaveCount(0);
  await expect(card.timeline).toHaveCount(0);
  await expect(card.stop).toHaveCount(0);

  await card.root.getByRole("button", { name: "Show 3 steps" }).click();
  await expect(card.timeline.getByRole("button")).toHaveCount(3);
  await expect(card.scrubber).toHaveAttribute("aria-valuetext", "End");
  await card.scrubber.press("Home");
  await expect(card.screenImage).toHaveAttribute("src", /live_/);
  await card.root.getByRole("button", { name: "After" }).click();
  await expect(card.screenImage).toHaveAttribute("src", steps[0]!.screenshot!.url);
});
