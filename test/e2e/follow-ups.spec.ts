// Telling a running task more (seed 001's follow-ups), at both sizes: while the agent works, the
// prompt talks to it — what only a new task takes is put away — and the message shows as the
// person's bubble with the card continuing below it, saying it waits for the agent's next step,
// then which step read it. The model's next request carries it. While the task waits for the
// person, the prompt answers its question instead.
import { AxeBuilder } from "@axe-core/playwright";
import { act, isChatTurn, planningText } from "../support/scripted-model.ts";
import { expect, test } from "./fixtures.ts";
import { SIZES, snapshot } from "./ui-sizes.ts";
import { gate } from "../support/gate.ts";

for (const size of SIZES) {
  test.describe(`at ${size.name} size`, () => {
    test.use(size.use);

    test("a message sent while the task runs reaches the agent at its next step", async ({ chat, model, pages, page }) => {
      const firstStep = gate();
      model.script(
        { ...act("move", { x: 100, y: 100 }, "Looking at the form"), until: firstStep.held },
        act("done", { answer: "Pressed the blue one." }, "Finished"),
      );
      await chat.open();
      await chat.send("press a button", pages.url("form.html"));
      const card = chat.card();
      await expect(card.root).toHaveAttribute("data-status", "running");
      const planning = () => model.requests.filter((r) => !isChatTurn(r) && planningText(r).includes("Task: press a button"));
      // The model is thinking about step 1: what is sent now is for step 2.
      await expect.poll(() => planning().length).toBe(1);

      // While it runs, the prompt is for the task: no computer or start page to choose, no files.
      await expect(chat.prompt).toHaveAttribute("placeholder", /Tell the agent more while it works/);
      await expect(chat.startUrl).toHaveCount(0);
      await expect(page.getByRole("combobox", { name: "Computer" })).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Attach files" })).toBeDisabled();

      await chat.prompt.fill("the blue one, please");
      await chat.prompt.press("Enter");
      const bubble = page.getByTestId("user-message").filter({ hasText: "the blue one, please" });
      await expect(bubble.getByTestId("follow-up-state")).toHaveText("Sent to the agent · it reads this at its next step");
      await expect(chat.prompt).toHaveValue("");
      await expect(chat.prompt).toBeFocused();
      await expect(chat.runCards).toHaveCount(1);
      // The card goes on below the person's words.
      const bubbleBox = (await bubble.boundingBox())!;
      const cardBox = (await card.root.boundingBox())!;
      expect(cardBox.y).toBeGreaterThan(bubbleBox.y);
      await expect(bubble).toBeInViewport();
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
      await snapshot(page, `follow-up-sent-${size.name}`);

      firstStep.open();
      await expect(card.root).toHaveAttribute("data-status", "completed");
      await expect(bubble.getByTestId("follow-up-state")).toHaveText("Read by the agent at step 2");
      await expect(card.answer).toHaveText("Pressed the blue one.");
      const [first, second] = planning();
      expect(planningText(first!)).not.toContain("the blue one");
      expect(planningText(second!)).toContain("- the blue one, please");
      await snapshot(page, `follow-up-read-${size.name}`);

      // After a reload the bubble still says which step read it.
      await page.reload();
      await expect(page.getByTestId("follow-up-state")).toHaveText("Read by the agent at step 2");
      // The task has ended: the prompt starts new tasks again.
      await expect(chat.prompt).toHaveAttribute("placeholder", /Ask or describe a task/);
      await expect(chat.startUrl).toBeVisible();
    });

    test("while the task waits for the person, a message answers it", async ({ chat, model, pages, page }) => {
      model.script(act("needs_user", { answer: "Please sign in, then tell me." }, "Waiting for the sign-in"), act("done", { answer: "Signed in." }, "Finished"));
      await chat.open();
      await chat.send("sign me in", pages.url("form.html"));
      const card = chat.card();
      await expect(card.root).toHaveAttribute("data-status", "awaiting_user");
      await expect(chat.prompt).toHaveAttribute("placeholder", /Reply to the agent/);

      await chat.prompt.fill("I signed in as Ada");
      await chat.prompt.press("Enter");
      await expect(card.root).toHaveAttribute("data-status", "completed");
      await expect(page.getByTestId("user-message")).toHaveText(["sign me in", "I signed in as Ada"]);
      await expect(page.getByTestId("follow-up-state")).toHaveCount(0);
      const resumed = model.requests.filter((r) => !isChatTurn(r) && planningText(r).includes("Task: sign me in"))[1];
      expect(planningText(resumed!)).toContain("answered: I signed in as Ada");
    });
  });
}
