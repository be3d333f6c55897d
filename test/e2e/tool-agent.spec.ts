// The browser tool agent in the chat: its steps are tool calls whose input and output the card
// shows — extracted data as formatted JSON — and a completed task can be run again, which replays
// it without asking the model.
import { isChatTurn, systemText, userText, type RecordedRequest, type Reply } from "../support/scripted-model.ts";
import { expect, test } from "./fixtures.ts";

test.use({ appConfig: { agent: { mode: "dom" } } });

const calls = (name: string, args: unknown): Reply => ({ chat: { calls: [{ name, arguments: args }] } });
const agent = (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a web automation agent");

test("a tool-agent run shows its tool calls, extracted data as JSON, and runs again without the model", async ({ chat, model, pages, page }) => {
  model.route(
    agent,
    calls("ariaTree", {}),
    calls("act", { action: "click Press me" }),
    calls("extract", { instruction: "the status line", schema: { type: "object", properties: { status: { type: "string" } } } }),
    calls("close", { reasoning: "Pressed it; the page says **Clicked**.", taskComplete: true }),
  );
  model.route(
    (r) => systemText(r).startsWith("You choose elements"),
    (r) => ({ text: JSON.stringify({ ref: /button "Press me" \[ref=([a-z0-9]+)\]/.exec(userText(r))![1], method: "click" }) }),
  );
  model.route((r) => systemText(r).startsWith("You extract data"), { text: '{"result": {"status": "Clicked"}}' });
  await chat.open();
  await chat.send("press the button and read the status", pages.url("form.html"));

  const card = chat.card();
  await expect(card.root).toHaveAttribute("data-status", "completed");
  await expect(card.answer).toHaveText("Pressed it; the page says Clicked.");
  await card.root.getByRole("button", { name: "Show 4 steps" }).click();
  await expect(card.timeline.getByRole("button")).toHaveText([/ariaTree/, /act "click Press me"/, /extract "the status line"/, /close/]);
  await card.timelineItem(2).click();
  await expect(card.root.getByTestId("extracted")).toHaveText('{\n  "status": "Clicked"\n}');
  await card.timelineItem(1).click();
  await expect(card.root.getByTestId("tool-input")).toContainText('"action": "click Press me"');
  await expect(card.root.getByTestId("tool-output")).toContainText("getByRole('button', { name: 'Press me' })");

  const asked = model.requests.filter((r) => !isChatTurn(r)).length;
  await card.root.getByRole("button", { name: "Run again" }).click();
  await expect(chat.runCards).toHaveCount(2);
  const again = chat.card(1);
  await expect(again.root).toHaveAttribute("data-status", "completed");
  await expect(again.answer).toContainText("Run again: replayed step 2 without the model.");
  await expect(page.getByTestId("user-message").last()).toHaveText("Run again");
  expect(model.requests.filter((r) => !isChatTurn(r))).toHaveLength(asked);
});
