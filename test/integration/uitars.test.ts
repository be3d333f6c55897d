// UI-TARS over an OpenAI-compatible endpoint: its Thought/Action text drives a real page, its
// 0–1000 coordinates land on the pixels meant, and the request carries the task and screenshot.
import { describe, expect, it } from "vitest";
import type { TaskReply } from "../../src/protocol/index.ts";
import { planningText, type Reply } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages, app } = useWorld({ config: { model: { provider: "uitars", name: "ui-tars-test", uitarsVersion: "1.0" } } });
const say = (text: string): Reply => ({ text });

describe("UI-TARS", () => {
  it("runs a task on a real page from its Thought/Action answers", async () => {
    model.route(
      (r) => planningText(r).includes("Task: fill the form"),
      say("Thought: Press the button first.\nAction: click(start_box='(156,162)')"),
      say("Thought: Now the name.\nAction: type(content='Ada')"),
      say("I will now finish"),
      say("Thought: The form shows the name.\nAction: finished(content='Typed **Ada**.')"),
    );
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-tars", text: "fill the form", start_url: pages.url("form.html") });
    const events = await openStream(app.url, "s-tars", 0);
    expect(await events.completes(json.task_id)).toMatchObject({ answer: "Typed **Ada**." });
    events.close();
    await pages.waitForRecord("clicked");
    await pages.waitForRecord("typed:Ada");
    const { json: stored } = await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
    expect(stored.steps.map((s) => [s.action?.type, s.text, s.planner])).toEqual([
      ["click", "Press the button first.", "uitars:ui-tars-test"],
      ["type", "Now the name.", "uitars:ui-tars-test"],
      ["done", "The form shows the name.", "uitars:ui-tars-test"],
    ]);
    expect(stored.steps[0]).toMatchObject({ cursor_x: 200, cursor_y: 130 });
    const requests = model.requests.filter((r) => planningText(r).includes("Task: fill the form"));
    expect(requests).toHaveLength(4);
    expect(requests[0]!.body).toMatchObject({ model: "ui-tars-test", stream: false });
    expect(requests[0]!.body.response_format).toBeUndefined();
    expect(requests[0]!.body.messages.map((m) => m.role)).toEqual(["system", "user"]);
    // The answer without an action went back with the reason.
    expect(requests[3]!.body.messages.at(-1)).toMatchObject({ role: "user", content: expect.stringContaining("That answer could not be used") });
  });
});
