// An action the approval policy asks about: the card shows the screen before it with its target
// marked and what it would do; Deny tells the planner, which goes on, and Allow lets it run.
import { DEFAULT_APPROVAL_POLICY } from "../../src/core/approval-policy.ts";
import { act, isChatTurn, planningText } from "../support/scripted-model.ts";
import { expect, test } from "./fixtures.ts";

test.use({ appConfig: { approvals: DEFAULT_APPROVAL_POLICY } });

const deleteThenFinish = [act("click", { x: 180, y: 120 }, "Deleting the account"), act("done", { answer: "Done." }, "Finished")];

test("the card shows the target on the screen before the action; Deny goes back to the planner", async ({ chat, model, pages }) => {
  model.script(...deleteThenFinish);
  await chat.open();
  await chat.send("delete my account", pages.url("approvals.html"));

  const card = chat.card();
  await expect(card.root).toHaveAttribute("data-status", "awaiting_user");
  await expect(card.answer).toContainText('Deleting the account: it presses "Delete account", which may delete.');
  const shot = card.root.getByRole("img", { name: "The screen before “Deleting the account”, with its target marked" });
  await expect(shot).toBeVisible();
  await expect(card.root.getByText(pages.url("approvals.html"))).toBeVisible();

  // The mark sits on the button in the picture: the button's box is 100–260 × 100–140 of 1280 × 800.
  const image = (await shot.boundingBox())!;
  const mark = (await card.root.getByTestId("approval-target").boundingBox())!;
  const centre = { x: ((mark.x + mark.width / 2 - image.x) / image.width) * 1280, y: ((mark.y + mark.height / 2 - image.y) / image.height) * 800 };
  expect(centre.x).toBeGreaterThan(100);
  expect(centre.x).toBeLessThan(260);
  expect(centre.y).toBeGreaterThan(100);
  expect(centre.y).toBeLessThan(140);

  await card.root.getByRole("button", { name: "Deny" }).click();
  await expect(card.root).toHaveAttribute("data-status", "completed");
  expect(pages.records).not.toContain("deleted");
  const second = model.requests.filter((r) => !isChatTurn(r) && planningText(r).includes("delete my account"))[1];
  expect(planningText(second!)).toContain("The person did not allow this");
});

test("Allow lets the action run", async ({ chat, model, pages }) => {
  model.script(...deleteThenFinish);
  await chat.open();
  await chat.send("delete my account", pages.url("approvals.html"));
  const card = chat.card();
  await card.root.getByRole("button", { name: "Allow" }).click();
  await pages.waitForRecord("deleted");
  await expect(card.root).toHaveAttribute("data-status", "completed");
  await expect(card.answer).toHaveText("Done.");
});

test("an action inside a frame of another site names that site on the card and marks the field inside the frame", async ({ chat, model, pages }) => {
  model.script(act("click", { x: 235, y: 265 }, "Clicking the password box"), act("type", { text: "hunter2" }, "Typing the password"), act("done", { answer: "Done." }, "Finished"));
  await chat.open();
  await chat.send("read the members' deals; my password is hunter2", pages.url("framed-form.html"));

  const card = chat.card();
  await expect(card.root).toHaveAttribute("data-status", "awaiting_user");
  await expect(card.answer).toContainText("Typing the password: it types into a password field.");
  const partner = new URL(pages.url("framed-form.html")).origin.replace("127.0.0.1", "localhost");
  await expect(card.root.getByText(`in a frame of ${partner}`)).toBeVisible();

  // The mark sits on the password field inside the frame: 135–335 × 245–285 of the screen.
  const shot = card.root.getByRole("img", { name: "The screen before “Typing the password”, with its target marked" });
  const [width, height] = await shot.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]);
  const image = (await shot.boundingBox())!;
  const mark = (await card.root.getByTestId("approval-target").boundingBox())!;
  const centre = { x: ((mark.x + mark.width / 2 - image.x) / image.width) * width!, y: ((mark.y + mark.height / 2 - image.y) / image.height) * height! };
  expect(centre.x).toBeGreaterThan(135);
  expect(centre.x).toBeLessThan(335);
  expect(centre.y).toBeGreaterThan(245);
  expect(centre.y).toBeLessThan(285);

  await card.root.getByRole("button", { name: "Deny" }).click();
  await expect(card.root).toHaveAttribute("data-status", "completed");
  expect(pages.records.some((r) => r.includes("hunter2"))).toBe(false);
});
