// What the chat says, on a laptop and on a phone: a failure gives its reason in plain words, in the
// person's language, with the server's code and message folded away for developers (a 500's JSON
// body is never the message); a task's answer stays shown in its card, and the assistant's reply
// under it adds to it; and what a step cost sits in that step's details, not on every card.
import { act, isChatTurn, systemText } from "../support/scripted-model.ts";
import { expect, test } from "./fixtures.ts";

const SIZES = [
  { name: "laptop", viewport: { width: 1280, height: 800 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
];

for (const { name, viewport } of SIZES) {
  test.describe(`on a ${name}`, () => {
    test.use({ viewport });

    test("a failed task says why in plain words; the code and the server's message are in the details", async ({ chat, model, pages }) => {
      model.script({ status: 401, body: JSON.stringify({ error: { message: "invalid api key" } }) });
      await chat.open();
      await chat.send("do anything", pages.url("form.html"));
      const card = chat.card();
      await expect(card.root).toHaveAttribute("data-status", "failed");
      await expect(card.root.getByTestId("failure")).toContainText("The task failed");
      await expect(card.root.getByTestId("failure-reason")).toHaveText("The AI model's service refused the API key. Check the key in the server's settings.");
      const details = card.root.getByTestId("error-details");
      await expect(details.getByText("MODEL_HTTP_ERROR")).toBeHidden();
      await details.getByText("Details for developers").click();
      await expect(details.getByText("MODEL_HTTP_ERROR")).toBeVisible();
      await expect(details).toContainText("HTTP 401");
      // No developer line, and nothing that spent no tokens claims "0 tokens".
      await expect(card.root).not.toContainText("tokens");
    });

    test.describe("with no second tries at the model", () => {
      test.use({ appConfig: { model: { httpRetries: 0 } } });

      test("an answer that fails with a 500 shows a plain reason, never the JSON body", async ({ chat, model, page }) => {
        model.chat({ status: 500, body: JSON.stringify({ error: { message: "upstream exploded", type: "server_error" } }) });
        await chat.open();
        await chat.send("hello?");
        const failure = page.getByTestId("failed-answer");
        await expect(failure).toContainText("The assistant could not answer");
        await expect(failure).toContainText("The AI model's service had a problem of its own. Try again in a moment.");
        expect(await failure.innerText()).not.toContain("{");
        await failure.getByText("Details for developers").click();
        await expect(failure.getByTestId("error-details")).toContainText("upstream exploded");
      });
    });

    test("the answer stays in the card, in view when the task ends, and the assistant's reply adds to it", async ({ chat, model, pages, page }) => {
      model.chat(
        { chat: { text: "I'll press it.", calls: [{ name: "computer_task", arguments: { task: "Press the button on the page", start_url: pages.url("form.html") } }] } },
        { chat: { text: "It is done; you can now fill in the form below the button." } },
      );
      model.script(act("click", { x: 200, y: 130 }, "Pressing the button"), act("done", { answer: "The button was pressed." }, "Finished"));
      await chat.open();
      await chat.send(`press the button on my form page, ${pages.url("form.html")}`);
      const card = chat.card();
      await expect(card.root).toHaveAttribute("data-status", "completed");
      await expect(page.getByTestId("answer-message").last()).toHaveText("It is done; you can now fill in the form below the button.");
      await expect(card.answer).toHaveText("The button was pressed.");
      await expect(card.answer).toBeInViewport();
      await expect(card.root).not.toContainText("reply below");
      // The assistant is told the answer stays shown above its reply, to add to it rather than point at it.
      const system = systemText(model.requests.filter(isChatTurn).at(-1)!);
      expect(system).toContain("do not repeat it and do not point to it");
      expect(system).not.toContain("already seen");

      // What a step cost is in its details only.
      await expect(card.root).not.toContainText("tokens");
      await card.root.getByRole("button", { name: "Show 2 steps" }).click();
      await card.timelineItem(0).click();
      await expect(card.root.getByTestId("step-cost")).toContainText("1.2k tokens in, 60 out");
      await expect(card.root.getByTestId("step-cost")).toHaveText(/ · \d+(\.\d)?\ss$/);
    });

    test.describe("in Chinese", () => {
      test.use({ locale: "zh-CN" });

      test("reasons and stop reasons are in Chinese", async ({ chat, model, pages, page }) => {
        model.script({ status: 401, body: JSON.stringify({ error: { message: "invalid api key" } }) });
        await chat.open();
        await page.getByRole("textbox", { name: "起始网址（可选）" }).fill(pages.url("form.html"));
        await page.getByRole("textbox", { name: "消息" }).fill("随便做点什么");
        await page.getByRole("textbox", { name: "消息" }).press("Enter");
        const failed = chat.card();
        await expect(failed.root).toHaveAttribute("data-status", "failed");
        await expect(failed.root.getByTestId("failure-reason")).toHaveText("AI 模型服务拒绝了 API 密钥，请检查服务器设置中的密钥。");
        await expect(failed.root.getByText("开发者详情")).toBeVisible();

        model.script({ ...act("done", { answer: "never" }), delayMs: 30_000 });
        await page.getByRole("textbox", { name: "消息" }).fill("慢慢做");
        await page.getByRole("textbox", { name: "消息" }).press("Enter");
        const slow = chat.card(1);
        await expect(slow.root).toHaveAttribute("data-status", "running");
        await slow.root.getByRole("button", { name: "停止任务" }).click();
        await expect(slow.root.getByTestId("stop-reason")).toHaveText("已由你停止。");
      });
    });
  });
}
