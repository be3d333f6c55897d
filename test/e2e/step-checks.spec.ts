// A step whose click was verified shows, when selected, how: the model's look with the annotated
// capture it saw (circle, arrow, "mouse pointer") and the raw one beside it.
import { userText, type Reply } from "../support/scripted-model.ts";
import { expect, test } from "./fixtures.ts";

const verifiedClick: Reply = {
  answer: { thought: "", progress: "Pressing the jumping button", action: { type: "click", args: { x: 180, y: 125 }, intent: "the Jumps once button", requires_verification: true } },
};

test("a verified click shows its pointer check with the annotated capture", async ({ chat, model, pages }) => {
  model.route((r) => userText(r).includes("on_target"), { answer: { on_target: false, dx: 400, dy: 200 } });
  model.script(verifiedClick, { answer: { thought: "", progress: "Done", action: { type: "done", args: { answer: "Pressed it." } } } });
  await chat.open();
  await chat.send("press the jumping button", pages.url("jumpy.html"));
  const card = chat.card();
  await expect(card.answer).toHaveText("Pressed it.");
  await pages.waitForRecord("once-clicked");

  await card.root.getByRole("button", { name: "Show 2 steps" }).click();
  await card.timelineItem(0).click();
  const checks = card.root.getByTestId("step-checks");
  await expect(checks).toContainText("✓ Sent a request to the site");
  await expect(checks).toContainText("✓ Pointer checked by the model (1 look)");
  await expect(checks).toContainText("1. off by (400, 200)");
  const annotated = checks.getByRole("img", { name: "Pointer check 1, annotated" });
  await expect(annotated).toBeVisible();
  await expect.poll(() => annotated.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1280);
  await expect(checks.getByRole("link", { name: "raw" })).toHaveAttribute("href", /\/api\/frames\/frame_/);
});
