// A task that needs the person: the card becomes the request with "I've done it" (in the
// person's language), the button resumes the same task, and the same card runs on to the end.
import { act, isChatTurn, planningText } from "../support/scripted-model.ts";
import { expect, test } from "./fixtures.ts";

const script = (answer: string) => [
  act("needs_user", { answer }, "Waiting for the login"),
  act("click", { x: 200, y: 130 }, "Pressing the button"),
  act("done", { answer: "Logged in and pressed the button." }, "Finished"),
];

test("I've done it resumes the same card, which then completes", async ({ chat, model, pages, page }) => {
  model.script(...script("Please **log in** in the browser, then press the button below."));
  await chat.open();
  await chat.send("log in for me", pages.url("form.html"));

  const card = chat.card();
  await expect(card.root).toHaveAttribute("data-status", "awaiting_user");
  await expect(card.answer).toHaveText("Please log in in the browser, then press the button below.");
  // The live screen is open for the person to act on; the steps are not shown.
  await expect(card.screen).toHaveAttribute("data-control", "person");
  await expect(card.scrubber).toHaveCount(0);
  expect(pages.records).toEqual([]);

  await card.root.getByRole("button", { name: "I've done it" }).click();
  await expect(card.root).toHaveAttribute("data-status", /running|completed/);
  await expect(card.root).toHaveAttribute("data-status", "completed");
  await expect(card.answer).toHaveText("Logged in and pressed the button.");
  await expect(chat.runCards).toHaveCount(1);
  await pages.waitForRecord("clicked");

  // The conversation keeps the request and the reply, with the card below them.
  await expect(page.getByTestId("answer-message")).toHaveText("Please log in in the browser, then press the button below.");
  await expect(page.getByTestId("user-message")).toHaveText(["log in for me", "I've done it"]);
  const resumed = model.requests.filter((r) => !isChatTurn(r) && planningText(r).includes("log in for me"))[1];
  expect(planningText(resumed!)).toContain("answered: I've done it");
});

test.describe("in Chinese", () => {
  test.use({ locale: "zh-CN" });

  test("the button says 我已经操作 and sends it", async ({ chat, model, pages, page }) => {
    model.script(...script("请先在浏览器中登录，然后点击下面的按钮。"));
    await chat.open();
    await page.getByRole("textbox", { name: "起始网址（可选）" }).fill(pages.url("form.html"));
    await page.getByRole("textbox", { name: "消息" }).fill("帮我登录");
    await page.getByRole("textbox", { name: "消息" }).press("Enter");
    await page.getByRole("button", { name: "我已经操作" }).click();
    await expect(chat.runCards).toHaveAttribute("data-status", "completed");
    await expect(page.getByTestId("user-message")).toHaveText(["帮我登录", "我已经操作"]);
    const resumed = model.requests.filter((r) => !isChatTurn(r) && planningText(r).includes("帮我登录"))[1];
    expect(planningText(resumed!)).toContain("answered: 我已经操作");
  });
});
