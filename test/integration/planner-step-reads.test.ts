// What a planner's step reads of the page beside another read rather than on its own, to spare
// the step a round trip, is still read from the page as it is at its moment: how to find a clicked
// element again (for Run again and the export) from before anything touched it, though the
// pointer check's hover renames it and its press renames it again; the page's tools for the next
// request from after the action's effect, though the page declares them only once its server answered.
import { expect, it } from "vitest";
import type { SendReply, TaskReply } from "../../src/protocol/index.ts";
import { act, planningText, systemText } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

// The default pointer check: the hit test hovers before each click.
const { model, pages, app } = useWorld();

it("records a pressed button by the name it had before the hover and the press, and lists the tools the press made the page declare", async () => {
  const task = "Add it to the cart, then take it out";
  model.route(
    (r) => planningText(r).includes(`Task: ${task}`),
    act("click", { x: 200, y: 130 }, "Adding it"),
    act("click", { x: 200, y: 130 }, "Taking it out"),
    act("done", { answer: "Added and taken out." }, "Finished"),
  );
  const sent = await app.api<SendReply>("POST", "/api/chat/send", { mode: "task", session_id: "s-step-reads", text: task, start_url: pages.url("press-renames.html") });
  const events = await openStream(app.url, "s-step-reads", 0);
  expect(await events.waitForEnd(sent.json.task_id!, 60_000)).toMatchObject({ type: "task.completed" });
  events.close();
  const { steps } = (await app.api<TaskReply>("GET", `/api/tasks/${sent.json.task_id}`)).json;
  expect(steps[0]!.carried_out).toMatchObject({ element: { locator: "getByRole('button', { name: 'Add to cart' })" } });
  expect(steps[1]!.carried_out).toMatchObject({ element: { locator: "getByRole('button', { name: 'Added' })" } });
  const asked = model.requests.filter((r) => planningText(r).includes(`Task: ${task}`));
  expect(asked.map((r) => systemText(r).includes("- page_tool:"))).toEqual([false, true, false]);
  expect(planningText(asked[1]!)).toContain('- "checkout": Pays for the cart.');
  expect(planningText(asked[2]!)).not.toContain("checkout");
});
