// GLM-4.5V in its own dialect under MODEL_PROVIDER=qwen: the published desktop prompt in one user
// message, `action(param='...')` answers whose 0–999 points land where they mean on the 1280×800
// page, the Memory it keeps given back, garbage sent back unrun, and ASK_USER waiting for the person.
import { describe, expect, it } from "vitest";
import type { TaskReply } from "../../src/protocol/index.ts";
import { planningText, userText, type RecordedRequest, type Reply } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages, app } = useWorld({ config: { model: { provider: "qwen", name: "glm-4.5v" } } });
const say = (explanation: string, call: string, memory = "[]"): Reply => ({ text: `<think>Looking.</think>${explanation} <|begin_of_box|>${call}<|end_of_box|>\nMemory:\n${memory}` });

describe("GLM-4.5V", () => {
  it("runs a task on a real page from its boxed actions on the 0–999 grid, asks the person and resumes", async () => {
    const isTask = (r: RecordedRequest) => planningText(r).includes("# Task:\nfill the form the GLM way");
    model.route(
      isTask,
      { text: "I will run a command. <|begin_of_box|>os.system('rm -rf /')<|end_of_box|>\nMemory:\n[]" },
      // The button's centre (200, 130) of 1280×800 is [156, 163] in thousandths.
      say("I will press the button.", "left_click(start_box='[156, 163]', element_info='Press me')", '[{"name": "Ada"}]'),
      say("The person must sign in first.", "ASK_USER(content='Please sign in, then tell me.')"),
      say("I will type the name.", "type(content='Ada')"),
      say("The form shows the name Ada.", "DONE()"),
    );
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-glm", text: "fill the form the GLM way", start_url: pages.url("form.html") });
    const events = await openStream(app.url, "s-glm", 0);
    expect(await events.waitFor((e) => e.type === "task.awaiting_user")).toMatchObject({ answer: "Please sign in, then tell me." });
    await pages.waitForRecord("clicked");
    expect((await app.api("POST", "/api/chat/ack-user-action", { task_id: json.task_id })).status).toBe(202);
    expect(await events.completes(json.task_id)).toMatchObject({ answer: "The form shows the name Ada." });
    events.close();
    await pages.waitForRecord("typed:Ada");

    const { json: stored } = await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
    expect(stored.steps.map((s) => [s.action?.type, s.planner])).toEqual([
      ["click", "qwen:glm-4.5v"],
      ["needs_user", "qwen:glm-4.5v"],
      ["type", "qwen:glm-4.5v"],
      ["done", "qwen:glm-4.5v"],
    ]);
    expect(stored.steps[0]).toMatchObject({ cursor_x: 200, cursor_y: 130 });

    const requests = model.requests.filter(isTask);
    expect(requests).toHaveLength(5);
    expect(requests[0]!.body.messages.map((m) => m.role)).toEqual(["user"]);
    expect(planningText(requests[0]!)).toContain("The coordinates involved are all represented in thousandths (0-999)");
    expect(planningText(requests[0]!)).toContain("Call rule: `left_drag(start_box='[x1,y1]', end_box='[x2,y2]', element_info='')`");
    expect(userText(requests[1]!)).toContain("That answer could not be used: there is no action");
    // The memory it kept comes back; the person's answer is in the history.
    expect(planningText(requests[2]!)).toContain('Memory:\n[{"name": "Ada"}]');
    expect(planningText(requests[3]!)).toContain("The person was asked to act and answered");
  });
});
