// Between its steps the run card says what the agent is doing, and for how long: thinking while
// the model is asked, waiting for the model with the retry's number while its endpoint answers
// HTTP 500, at both sizes. Before the first step this takes the place of "Starting…"; after it,
// it sits beside the status while the latest step's text stays.
import { act } from "../support/scripted-model.ts";
import { expect, test } from "./fixtures.ts";
import { SIZES, snapshot } from "./ui-sizes.ts";
import { gate } from "../support/gate.ts";

const overloaded = { status: 500, body: '{"error":"overloaded"}' };

for (const size of SIZES) {
  test.describe(`at ${size.name} size`, () => {
    test.use({ ...size.use, appConfig: { model: { backoffMs: 1000, httpRetries: 3 } } });

    test("the card says it is thinking, then waiting for the model through its retries, with the seconds", async ({ chat, model, pages, page }) => {
      const firstStep = gate();
      const finish = gate();
      model.script(
        { ...overloaded, delayMs: 3000 },
        // The first retry is shown a few seconds, so a busy machine does not miss it.
        { ...overloaded, delayMs: 4000 },
        { ...act("move", { x: 100, y: 100 }, "Moving over the form"), until: firstStep.held },
        { ...act("done", { answer: "Looked at the form." }, "Finished"), until: finish.held },
      );
      await chat.open();
      await chat.send("look at the form", pages.url("form.html"));
      const card = chat.card();
      const activity = card.root.getByTestId("run-activity");

      // No step yet: in place of "Starting…", what the agent does, and for how long.
      await expect(card.latestProgress).toHaveText(/^Thinking…\s\d+\ss$/);
      await expect(activity).toBeVisible();

      // The model answers HTTP 500: the card says it waits for it, and which retry this is.
      await expect(card.latestProgress).toHaveText(/^Waiting for the model \(retry 1 of 3\)…/);
      await expect(activity).toBeInViewport();
      await snapshot(page, `activity-retry-${size.name}`);
      await expect(card.latestProgress).toHaveText(/^Waiting for the model \(retry 2 of 3\)…(\s\d+\ss)?$/);
      // The seconds count the whole wait for the model, from when it was first asked.
      await expect(activity).toHaveText(/\s(\d{2}|[3-9])\ss$/);

      // A step arrives: its text shows, and the next wait is the model thinking again, beside the status.
      firstStep.open();
      await expect(card.latestProgress).toHaveText("Moving over the form");
      await expect(activity).toHaveText(/^Thinking…/);
      await expect(activity).toBeInViewport();
      await expect(card.root.getByTestId("run-header")).not.toContainText("Waiting for the model");

      // The task ends: nothing is said to be under way any more.
      finish.open();
      await expect(card.root).toHaveAttribute("data-status", "completed");
      await expect(activity).toHaveCount(0);
    });
  });
}
