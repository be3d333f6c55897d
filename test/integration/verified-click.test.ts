// The cursor-checked click (seed 000 §4.1): a target that stays put is confirmed by a hit test
// without asking the model; a button that jumps away on hover is caught, the model's correction is
// followed and the click lands on the new position; a button that always runs away is never
// clicked — the task asks the person instead.
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { imageSize } from "../../src/perception/image-size.ts";
import type { SessionEvent, TaskReply } from "../../src/protocol/index.ts";
import { openStream } from "../support/sse.ts";
import { planningText, userText, type RecordedRequest, type Reply } from "../support/scripted-model.ts";
import { useWorld } from "../support/world.ts";

const { model, pages, app } = useWorld();

const verifiedClick = (x: number, y: number, intent: string): Reply => ({
  answer: { thought: "", progress: `Clicking ${intent}`, action: { type: "click", args: { x, y }, intent, requires_verification: true } },
});
const done: Reply = { answer: { thought: "", progress: "Done", action: { type: "done", args: { answer: "ok" } } } };
const isCheck = (r: RecordedRequest) => userText(r).includes("on_target");

async function start(task: string) {
  const session = `s-${task.replace(/\W+/g, "-")}`;
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text: task, start_url: pages.url("jumpy.html") });
  return { taskId: json.task_id, events: await openStream(app.url, session, 0), session };
}

describe("a click that asks for verification", () => {
  it("is confirmed by a hit test when the target stays put, without a model call", async () => {
    model.route((r) => planningText(r).includes("Task: press still"), verifiedClick(180, 625, "the Still button"), done);
    const checksBefore = model.requests.filter(isCheck).length;
    const { taskId, events } = await start("press still");
    await events.completes(taskId);
    events.close();
    await pages.waitForRecord("still-clicked");
    expect(model.requests.filter(isCheck).length).toBe(checksBefore);
    const { json } = await app.api<TaskReply>("GET", `/api/tasks/${taskId}`);
    expect(json.steps[0]?.verification).toMatchObject({
      verified: true,
      model_calls: 0,
      attempts: [{ method: "hit_test", on_target: true, cursor_x: 180, cursor_y: 625 }],
    });
  });

  it("catches a button that jumps away on hover and clicks where the model says it went", async () => {
    model.route((r) => planningText(r).includes("Task: press once"), verifiedClick(180, 125, "the Jumps once button"), done);
    model.route(isCheck, { answer: { on_target: false, dx: 400, dy: 200 } });
    const { taskId, events } = await start("press once");
    await events.completes(taskId);
    events.close();
    await pages.waitForRecord("once-clicked");

    const check = model.requests.filter(isCheck).at(-1)!;
    expect(check.body.messages.map((m) => m.role)).toEqual(["user"]);
    expect(userText(check)).toContain("Intent: the Jumps once button");
    expect(userText(check)).toContain("aimed at (180, 125); the mouse pointer is at (180, 125)");
    const parts = check.body.messages[0]!.content as { type: string; image_url?: { url: string } }[];
    const image = Buffer.from(parts.find((p) => p.type === "image_url")!.image_url!.url.split(",")[1]!, "base64");
    expect(imageSize(image)).toEqual({ width: 1280, height: 800 });

    const { json } = await app.api<TaskReply>("GET", `/api/tasks/${taskId}`);
    const step = json.steps[0]!;
    expect(step.verification).toMatchObject({
      verified: true,
      model_calls: 1,
      attempts: [
        { method: "hit_test", on_target: false },
        { method: "model", on_target: false, dx: 400, dy: 200, cursor_x: 180, cursor_y: 125 },
        { method: "hit_test", on_target: true, cursor_x: 580, cursor_y: 325 },
      ],
    });
    expect(step).toMatchObject({ cursor_x: 580, cursor_y: 325 });
    const frames = path.join(app.dataDir, "sessions", "s-press-once", "tasks", taskId, "frames");
    expect(existsSync(path.join(frames, "0001_check1.jpg"))).toBe(true);
    expect(existsSync(path.join(frames, "0001_check1_annotated.jpg"))).toBe(true);
    const annotated = await fetch(`${app.url}${step.verification!.attempts[1]!.annotated!.url}`);
    expect(annotated.status).toBe(200);
    const next = model.requests.filter((r) => planningText(r).includes("Task: press once"))[1]!;
    expect(planningText(next)).toContain(`Step 1: click (180, 125) "the Jumps once button" → changed ✓ (sent a request to the site), pointer checked and corrected`);
  });

  it("never clicks a button that keeps running away: after 4 looks the person is asked", async () => {
    model.route((r) => planningText(r).includes("Task: press runner"), verifiedClick(180, 425, "the Runs away button"), done);
    model.route(isCheck, ...Array.from({ length: 4 }, () => ({ answer: { on_target: false, dx: 200, dy: 0 } })));
    const { taskId, events, session } = await start("press runner");
    const waiting = (await events.waitFor((e) => e.type === "task.awaiting_user")) as Extract<SessionEvent, { type: "task.awaiting_user" }>;
    expect(waiting.answer).toBe(
      "I could not place the pointer on “the Runs away button” after 4 tries, so I did not click. Please click it yourself, then press “I've done it”.",
    );
    expect(pages.records).not.toContain("runner-clicked");
    const { json } = await app.api<TaskReply>("GET", `/api/tasks/${taskId}`);
    expect(json.steps[0]?.verification).toMatchObject({ verified: false, model_calls: 4 });
    expect(json.steps[0]?.text).toBe("Clicking the Runs away button (not clicked: the pointer could not be placed on it)");

    await app.api("POST", "/api/chat/ack-user-action", { task_id: taskId });
    await events.completes(taskId);
    events.close();
    const next = model.requests.filter((r) => planningText(r).includes("Task: press runner"))[1]!;
    expect(planningText(next)).toContain(`→ not clicked: the pointer could not be placed on it`);
    expect(session).toBe("s-press-runner");
  });
});
