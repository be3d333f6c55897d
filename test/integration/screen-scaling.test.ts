// Clicks land where the model meant at devicePixelRatio 1.25 and 2: the screenshot is taken in
// device pixels, the model sees it fitted to 1280×800, and its points are mapped back through
// perception/coordinates.
import { describe, expect, it } from "vitest";
import { imageSize } from "../../src/perception/image-size.ts";
import type { TaskReply } from "../../src/protocol/index.ts";
import { startApp } from "../support/app.ts";
import { openStream } from "../support/sse.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { useWorld } from "../support/world.ts";

const { model, pages } = useWorld({ app: false });

describe.each([
  [1.25, { width: 1600, height: 1000 }, { x: 250, y: 163 }],
  [2, { width: 2560, height: 1600 }, { x: 400, y: 260 }],
])("at devicePixelRatio %s", (dpr, frameSize, cursor) => {
  it("the model sees 1280×800 and its click lands on the CSS pixel it meant", async () => {
    const app = await startApp({ modelBaseUrl: model.baseUrl, config: { browser: { deviceScaleFactor: dpr } } });
    try {
      const task = `dpr ${dpr}`;
      model.route(
        (r) => planningText(r).includes(`Task: ${task}`),
        act("click", { x: 200, y: 130 }, "Pressing the button"),
        act("scroll", { x: 640, y: 400, scroll_y: 300 }, "Scrolling"),
        act("done", { answer: "ok" }),
      );
      const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", {
        mode: "task",
        session_id: `s-dpr-${String(dpr).replace(".", "")}`,
        text: task,
        start_url: pages.url("input-lab.html"),
      });
      const events = await openStream(app.url, `s-dpr-${String(dpr).replace(".", "")}`, 0);
      await events.completes(json.task_id);
      events.close();

      await pages.waitForRecord("down 0 200,130");
      await pages.waitForRecord("scrollY 300");
      const first = model.requests.find((r) => planningText(r).includes(`Task: ${task}`))!;
      expect(planningText(first)).toContain("Screenshot size: 1280×800 pixels");
      const parts = first.body.messages[1]!.content as { type: string; image_url?: { url: string } }[];
      const sent = Buffer.from(parts.find((p) => p.type === "image_url")!.image_url!.url.split(",")[1]!, "base64");
      expect(imageSize(sent)).toEqual({ width: 1280, height: 800 });
      const { json: stored } = await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
      expect(stored.steps[0]?.screenshot).toMatchObject(frameSize);
      expect(stored.steps[0]).toMatchObject({ cursor_x: cursor.x, cursor_y: cursor.y });
    } finally {
      await app.close();
    }
  });
});
