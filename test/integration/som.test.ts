// The Set-of-Mark planner: the model gets the page's interactive elements as a numbered list and
// the screenshot with the numbers drawn on it, answers with element ids, and the clicks land on
// those elements — at devicePixelRatio 2 too, where boxes are scaled into the image it saw.
import { describe, expect, it } from "vitest";
import type { TaskReply } from "../../src/protocol/index.ts";
import { imageSize } from "../../src/perception/image-size.ts";
import { startApp } from "../support/app.ts";
import { planningText, type Reply } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages } = useWorld({ app: false });
const answer = (value: Record<string, unknown>): Reply => ({ answer: { thought: "…", ...value } });

describe("the Set-of-Mark planner", () => {
  it.each([1, 2])("chooses elements by number and acts on them (devicePixelRatio %s)", async (dpr) => {
    const app = await startApp({ modelBaseUrl: model.baseUrl, config: { model: { provider: "som" }, browser: { deviceScaleFactor: dpr } } });
    try {
      const task = `fill with marks ${dpr}`;
      model.route(
        (r) => planningText(r).includes(`Task: ${task}`),
        answer({ progress: "Pressing the button", action: "click", element_id: 1 }),
        answer({ progress: "Typing the name", action: "type", element_id: 2, text: "Ada" }),
        answer({ progress: "Done", action: "done", answer: "Typed it." }),
      );
      const session = `s-som-${dpr}`;
      const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text: task, start_url: pages.url("form.html") });
      const events = await openStream(app.url, session, 0);
      expect(await events.completes(json.task_id)).toMatchObject({ answer: "Typed it." });
      events.close();
      await pages.waitForRecord("clicked");
      await pages.waitForRecord("typed:Ada");

      const first = model.requests.find((r) => planningText(r).includes(`Task: ${task}`))!;
      expect(planningText(first)).toContain('[1] button "Press me" at (200, 130)');
      expect(planningText(first)).toContain('[2] textbox "Name" at (254, 243)');
      const parts = first.body.messages[1]!.content as { type: string; image_url?: { url: string } }[];
      expect(imageSize(Buffer.from(parts.find((p) => p.type === "image_url")!.image_url!.url.split(",")[1]!, "base64"))).toEqual({ width: 1280, height: 800 });
      const { json: stored } = await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
      expect(stored.steps.map((s) => [s.action?.type, s.planner])).toEqual([
        ["click", "som:scripted-vl"],
        ["click", "som:scripted-vl"],
        ["type", "som:scripted-vl"],
        ["done", "som:scripted-vl"],
      ]);
      expect(stored.steps[0]).toMatchObject({ cursor_x: 200 * dpr, cursor_y: 130 * dpr });
      // The click before typing only puts the focus in the field: the typing shows the effect.
      expect(stored.steps[1]!.effect).toBeNull();
      expect(stored.steps[2]!.effect).toMatchObject({ changed: true, retries: 0 });
    } finally {
      await app.close();
    }
  });

  it("gives the model the files the person attached, before the task and the screen", async () => {
    const app = await startApp({ modelBaseUrl: model.baseUrl, config: { model: { provider: "som" } } });
    try {
      model.route((r) => planningText(r).includes("Task: use my notes"), answer({ action: "done", answer: "Read them." }));
      const notes = `data:text/plain;base64,${Buffer.from("the code is 4711").toString("base64")}`;
      const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", {
        mode: "task",
        session_id: "s-som-files",
        text: "use my notes",
        start_url: pages.url("form.html"),
        attachments: [{ name: "notes.txt", mime_type: "text/plain", data_url: notes }],
      });
      const events = await openStream(app.url, "s-som-files", 0);
      await events.completes(json.task_id);
      events.close();
      const request = model.requests.find((r) => planningText(r).includes("Task: use my notes"))!;
      const parts = request.body.messages[1]!.content as { type: string; text?: string }[];
      expect(parts.map((p) => p.type)).toEqual(["text", "text", "image_url"]);
      expect(parts[0]!.text).toBe("Attachment 1: notes.txt (text/plain):\nthe code is 4711");
    } finally {
      await app.close();
    }
  });

  it("sends an unknown element id back to the model, and ends the task failed when it answers fail", async () => {
    const app = await startApp({ modelBaseUrl: model.baseUrl, config: { model: { provider: "som" } } });
    try {
      model.route(
        (r) => planningText(r).includes("Task: wrong id"),
        answer({ action: "click", element_id: 42 }),
        answer({ action: "done", answer: "ok" }),
      );
      const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-som-wrong", text: "wrong id", start_url: pages.url("form.html") });
      const events = await openStream(app.url, "s-som-wrong", 0);
      await events.completes(json.task_id);
      events.close();
      const retry = model.requests.filter((r) => planningText(r).includes("Task: wrong id"))[1]!;
      expect(JSON.stringify(retry.body.messages.at(-1))).toContain("element_id 42 is not in the list (1–2)");

      // `fail` ends the task failed, with the model's reason.
      model.route((r) => planningText(r).includes("Task: no such button"), answer({ action: "fail", answer: "There is no Delete button on this page." }));
      const failing = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-som-fail", text: "no such button", start_url: pages.url("form.html") });
      const stream = await openStream(app.url, "s-som-fail", 0);
      expect(await stream.waitForEnd(failing.json.task_id)).toMatchObject({ type: "task.failed", error: { code: "TASK_INCOMPLETE", message: "There is no Delete button on this page." } });
      stream.close();
      // Its last answer is a step of the task, with what it cost.
      const { steps } = (await app.api<TaskReply>("GET", `/api/tasks/${failing.json.task_id}`)).json;
      expect(steps).toHaveLength(1);
      expect(steps[0]).toMatchObject({ action: null, text: "… (failed: There is no Delete button on this page.)", planner: "som:scripted-vl" });
      expect(steps[0]!.usage!.output_tokens).toBeGreaterThan(0);
    } finally {
      await app.close();
    }
  });
});
