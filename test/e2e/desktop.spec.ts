// A task on the desktop from the chat: the person picks Desktop, the card shows the live view of
// the virtual desktop while the JSON planner works in a real terminal, then the timeline and the
// answer; what the terminal ran is on disk.
import path from "node:path";
import { act } from "../support/scripted-model.ts";
import { desktopFolder, fileText, TERMINAL } from "../support/terminal.ts";
import { expect, test } from "./fixtures.ts";

test.use({ appConfig: { desktop: { apps: [TERMINAL] } } });

test("a desktop task runs from the chat with its live view, timeline and answer", async ({ chat, model, page }) => {
  const file = path.join(await desktopFolder("easyagentcu-e2e-desktop-"), "greeting.txt");
  const written = fileText(file);
  // The planner's first answer waits until the live view's title bar shows the terminal focused.
  let terminalUp = () => {};
  const up = new Promise<void>((resolve) => (terminalUp = resolve));
  model.script(
    { ...act("click", { x: 200, y: 100 }, "Clicking into the terminal"), until: up },
    act("type", { text: `echo 'Hello, World! 你好' > ${file}\n` }, "Typing the command"),
    // The desktop goes away with the task: the planner is done once the shell has run the command.
    { ...act("done", { answer: "The greeting is in the file." }, "Finished"), until: written },
  );
  await chat.open();
  await page.getByRole("combobox", { name: "What the task drives" }).selectOption("desktop");
  await expect(chat.startUrl).toHaveCount(0);
  await chat.send("write a greeting to a file");

  const card = chat.card();
  await expect(card.screenImage).toHaveAttribute("src", /live_/);
  await expect(card.screenPosition).toHaveText("Live");
  await expect(card.root.getByTestId("screen-url")).toContainText("— XTerm", { timeout: 30_000 });
  terminalUp();
  await expect(card.root).toHaveAttribute("data-status", "completed");
  await expect(card.answer).toHaveText("The greeting is in the file.");
  expect((await written).trim()).toBe("Hello, World! 你好");

  const { task, steps } = await chat.task(await chat.onlyTaskId());
  expect(task.computer).toBe("desktop");
  expect(steps.map((s) => s.screenshot?.width)).toEqual([1280, 1280, 1280]);
  await card.root.getByRole("button", { name: "Show 3 steps" }).click();
  await expect(card.timeline.getByRole("button")).toHaveCount(3);
  await expect(card.timelineItem(1)).toContainText("Typing the command");
  await card.timelineItem(1).click();
  await expect(card.screenImage).toHaveAttribute("src", steps[1]!.screenshot!.url);
});
