// A task that ran out of steps is not a dead end: its card offers Continue, which goes on from the
// last step in a new run card and completes, and Retry, which runs the same text again.
import { act, isChatTurn } from "../support/scripted-model.ts";
import { expect, test } from "./fixtures.ts";
import { SIZES, snapshot } from "./ui-sizes.ts";

for (const size of SIZES) {
  test.describe(size.name, () => {
    // MAX_STEPS 2: two steps, then the task fails with STEP_LIMIT.
    test.use({ ...size.use, appConfig: { limits: { maxSteps: 2 } } });

    test("a step-limit card shows Continue, which runs on to completion", async ({ chat, model, pages }) => {
      model.script(
        act("wait", { ms: 10 }, "Reading the form"),
        act("click", { x: 200, y: 130 }, "Pressing the button"),
        act("done", { answer: "The form is sent." }, "Done"),
      );
      await chat.open();
      await chat.send("fill the long form", pages.url("form.html"));
      const card = chat.card(0);
      // A browser started cold and two steps: on a busy machine, more than the usual wait.
      await expect(card.root).toHaveAttribute("data-status", "failed", { timeout: 30_000 });
      await expect(card.root.getByTestId("failure")).toContainText("The task failed");
      const retry = card.root.getByRole("button", { name: "Retry" });
      const proceed = card.root.getByRole("button", { name: "Continue" });
      await expect(retry).toBeVisible();
      await expect(proceed).toBeVisible();
      await snapshot(chat.page, `retry-continue-step-limit-${size.name}`);

      await proceed.click();
      const next = chat.card(1);
      await expect(next.answer).toHaveText("The form is sent.");
      await expect(next.root).toHaveAttribute("data-status", "completed");
      // The first card stays as it ended; the new run was told the steps it had taken.
      await expect(card.root).toHaveAttribute("data-status", "failed");
      const planned = model.requests.filter((r) => !isChatTurn(r));
      expect(JSON.stringify(planned.at(-1)!.body)).toContain("Pressing the button");
    });
  });
}

test("Retry runs the same text again in a new card", async ({ chat, model, pages }) => {
  model.script({ status: 401, body: JSON.stringify({ error: { message: "invalid api key" } }) });
  await chat.open();
  await chat.send("do anything", pages.url("form.html"));
  const card = chat.card(0);
  await expect(card.root).toHaveAttribute("data-status", "failed");
  model.script(act("done", { answer: "Done this time." }));
  await card.root.getByRole("button", { name: "Retry" }).click();
  await expect(chat.card(1).answer).toHaveText("Done this time.");
});
