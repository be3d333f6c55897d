// Set-of-Mark from pixels (seed 002 §2.4) on a real X server: a Tk window with labelled buttons,
// an icon-only button, a text entry and a checkbox. The built-in detector — edges, outlines and
// PaddleOCR on the CPU — finds every button where the window says it is, and a click that the
// model plans by number through the Set-of-Mark planner lands on the icon-only button, which the
// window reports. The caption under a click is read the same way, so a click on "Send message"
// waits for the person as one on a page's Send button does. On a web page the pixels add what the DOM cannot name (a button drawn on a
// canvas); with OMNIPARSER_URL an OmniParser server, here a local one answering in OmniParser's
// own format, replaces the built-in detector. On a Tk window with a control of every kind, at two
// screen sizes, every control gets a mark of its kind with its label read whole — icon-only
// buttons of any shape, checkboxes and radio buttons with their labels, a list and its items,
// text against a frame's line — and plain text is marked as text only; under two busy loops every
// label and every plain text is read on the first look.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DesktopComputer } from "../../src/computers/desktop/desktop-computer.ts";
import { VirtualDisplay } from "../../src/computers/desktop/virtual-display.ts";
import type { UiElement } from "../../src/perception/elements.ts";
import { imageSize } from "../../src/perception/image-size.ts";
import { area, center, contains, intersection, iou, type Box } from "../../src/perception/pixels/geometry.ts";
import { TextRecognizer } from "../../src/perception/pixels/recognizer.ts";
import { DEFAULT_APPROVAL_POLICY } from "../../src/core/approval-policy.ts";
import { risksOfDeed } from "../../src/hands/classify.ts";
import type { SessionEvent, TaskReply } from "../../src/protocol/index.ts";
import { openButtonsWindow, type ButtonsWindow } from "../fixtures/desktop/buttons-window.ts";
import { openControlsWindow, type Control } from "../fixtures/desktop/controls-window.ts";
import { startApp } from "../support/app.ts";
import { onFixtureScreen } from "../support/fixture-browser.ts";
import { act, planningText, type Reply } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const { model, pages } = useWorld({ app: false });
let display: VirtualDisplay;
let window: ButtonsWindow;
let desktop: DesktopComputer;

/** The middle of a box, in whole pixels. */
const centre = (box: Box) => ({ x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) });

beforeAll(async () => {
  display = await VirtualDisplay.start({ width: 1280, height: 800, windowManager: "openbox" });
  window = await openButtonsWindow(display.name);
  desktop = await DesktopComputer.open({ display: display.name, jpegQuality: 80, liveFps: 1, minIntervalMs: 0 });
  // The window is on the screen, drawn, where it said: its Open button reads "Open" there.
  const open = centre(window.buttons.Open!);
  const deadline = Date.now() + 30_000;
  while ((await desktop.labelAt(open.x, open.y)) !== "Open") {
    if (Date.now() > deadline) throw new Error("The buttons window never showed its Open button where it said it was.");
    await delay(500);
  }
}, 90_000);
afterAll(async () => {
  window?.close();
  await desktop?.close();
  await display?.close();
});

/** The element that overlaps the box most. */
function bestMatch(elements: UiElement[], box: Box): UiElement {
  return [...elements].sort((a, b) => iou(b.box, box) - iou(a.box, box))[0]!;
}

/** `[7] button "" at (115, 141), top left` → the numbers and centres of the listed elements. */
function listed(text: string): { id: number; kind: string; label: string; x: number; y: number }[] {
  return [...text.matchAll(/^\[(\d+)\] (\S+) ("(?:[^"\\]|\\.)*") at \((\d+), (\d+)\)/gm)].map((m) => ({ id: Number(m[1]), kind: m[2]!, label: JSON.parse(m[3]!) as string, x: Number(m[4]), y: Number(m[5]) }));
}

describe("Set-of-Mark from a desktop's pixels", () => {
  it("finds each labelled button and the icon-only button where the window has them", async () => {
    const elements = await desktop.elements();
    for (const [name, box] of Object.entries(window.buttons)) {
      const found = bestMatch(elements, box);
      expect(iou(found.box, box), name).toBeGreaterThanOrEqual(0.5);
      expect(found, name).toMatchObject({ kind: "button", label: name === "Search" ? "" : name });
    }
    expect(iou(bestMatch(elements, window.entry).box, window.entry)).toBeGreaterThanOrEqual(0.5);
    expect(bestMatch(elements, window.entry)).toMatchObject({ kind: "textbox", label: "Name" });
    expect(bestMatch(elements, window.checkbox)).toMatchObject({ kind: "checkbox", label: "Remember me" });
    // Numbered from 1, top to bottom, and within the cap.
    expect(elements.map((e) => e.id)).toEqual(elements.map((_, i) => i + 1));
    expect(elements.length).toBeLessThanOrEqual(40);
    const open = elements.find((e) => e.label === "Open")!;
    const send = elements.find((e) => e.label === "Send message")!;
    expect(open.id).toBeLessThan(send.id);
  });

  it("reads the caption a click would press, which the approval policy classifies", async () => {
    const send = centre(window.buttons["Send message"]!);
    const open = centre(window.buttons.Open!);
    expect(await desktop.labelAt(send.x, send.y)).toBe("Send message");
    expect(await desktop.labelAt(open.x, open.y)).toBe("Open");
    // A field's words are its content, not what a click presses.
    const entry = centre(window.entry);
    expect(await desktop.labelAt(entry.x, entry.y)).toBeNull();
    const click = (at: { x: number; y: number }, asks?: () => boolean) =>
      risksOfDeed(desktop, { type: "click", args: { ...at, button: "left" }, intent: "", requires_verification: false }, null, asks);
    expect(await click(send)).toEqual([{ kind: "send", message: 'presses "Send message", which may send' }]);
    expect(await click(open)).toEqual([]);
    // A policy that lets pay, delete and send through unasked needs no reading.
    expect(await click(send, () => false)).toEqual([]);
  });

  it("asks the person before a planner's click on the desktop's Send message button, and a refusal leaves it unpressed", async () => {
    const app = await startApp({ modelBaseUrl: model.baseUrl, config: { computer: "desktop", desktop: { display: display.name }, approvals: DEFAULT_APPROVAL_POLICY } });
    try {
      const task = "send the message on the desktop";
      const box = window.buttons["Send message"]!;
      const at = { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
      model.route((r) => planningText(r).includes(`Task: ${task}`), act("click", at, "Sending the message"), act("done", { answer: "The person kept it." }, "Done"));
      const events = await openStream(app.url, "s-desktop-send", 0);
      const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-desktop-send", text: task });
      const asked = (await events.waitFor((e) => e.type === "approval.requested" && e.task_id === json.task_id)) as Extract<SessionEvent, { type: "approval.requested" }>;
      expect(asked.approval.checks).toMatchObject([{ code: "send", message: 'Sending the message: it presses "Send message", which may send.' }]);
      expect((await app.api("POST", "/api/chat/approve", { task_id: json.task_id, approval_id: asked.approval.id, approved: false })).status).toBe(202);
      expect(await events.completes(json.task_id, 60_000)).toMatchObject({ answer: "The person kept it." });
      events.close();
      expect(window.clicks).not.toContain("Send message");
    } finally {
      await app.close();
    }
  }, 90_000);

  it("takes a click planned by number through the Set-of-Mark planner to the icon-only button", async () => {
    const app = await startApp({ modelBaseUrl: model.baseUrl, config: { computer: "desktop", desktop: { display: display.name }, model: { provider: "som" } } });
    try {
      const task = "search for something";
      const search = window.buttons.Search!;
      const inSearch = (e: { x: number; y: number }) => e.x >= search.x && e.x < search.x + search.width && e.y >= search.y && e.y < search.y + search.height;
      // The model reads the list and picks the number of the element where the magnifier is.
      const pick = (request: Parameters<typeof planningText>[0]): Reply => {
        const target = listed(planningText(request)).find(inSearch);
        return { answer: { thought: "The magnifier searches.", progress: "Clicking the search button", action: "click", element_id: target?.id ?? null } };
      };
      model.route((r) => planningText(r).includes(`Task: ${task}`), pick, { answer: { thought: "…", progress: "Done", action: "done", answer: "Searched." } });
      const events = await openStream(app.url, "s-pixel-som", 0);
      const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-pixel-som", text: task });
      expect(await events.completes(json.task_id, 60_000)).toMatchObject({ answer: "Searched." });
      events.close();
      await window.clicked("Search");
      expect(new Set(window.clicks)).toEqual(new Set(["Search"]));
      const first = model.requests.find((r) => planningText(r).includes(`Task: ${task}`))!;
      expect(listed(planningText(first)).find(inSearch)).toMatchObject({ kind: "button", label: "" });
      expect(planningText(first)).toMatch(/\[\d+\] button "Open" at \(\d+, \d+\), top left/);
      const { steps } = (await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`)).json;
      expect(steps[0]).toMatchObject({ action: { type: "click" } });
      expect(inSearch({ x: steps[0]!.cursor_x!, y: steps[0]!.cursor_y! })).toBe(true);
    } finally {
      await app.close();
    }
  }, 90_000);
});

/** The marks on a box: their centre is on it and they lie mostly inside it (a panel around it is not its mark). */
function marksOn(elements: UiElement[], box: Box): UiElement[] {
  return elements.filter((e) => contains(box, { ...center(e.box), width: 0, height: 0 }, 1) && intersection(e.box, box) >= 0.6 * area(e.box));
}

/** Each control's mark of its own kind, or null where it has none. */
function markOf(elements: UiElement[], control: Control): UiElement | null {
  return marksOn(elements, control.box).find((e) => e.kind === control.kind) ?? null;
}

/** A desktop of its own at `size` showing the window of every control, once it is drawn. */
async function controlsDesktop(size: { width: number; height: number }, ocrBudgetMs: number) {
  const screen = await VirtualDisplay.start({ ...size, windowManager: "openbox" });
  const controls = await openControlsWindow(screen.name);
  const computer = await DesktopComputer.open({ display: screen.name, jpegQuality: 80, liveFps: 1, minIntervalMs: 0, som: { maxElements: 40, ocrBudgetMs, omniparserTimeoutMs: 5_000 } });
  const open = controls.controls.find((c) => c.name === "Open")!;
  const deadline = Date.now() + 30_000;
  while ((await computer.labelAt(center(open.box).x, center(open.box).y)) !== "Open") {
    if (Date.now() > deadline) throw new Error("The controls window never showed its Open button where it said it was.");
    await delay(500);
  }
  return {
    controls,
    computer,
    close: async () => {
      controls.close();
      await computer.close();
      await screen.close();
    },
  };
}

describe.each([
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
])("Set-of-Mark on a window with a control of every kind, at $width×$height", (size) => {
  let desktop: Awaited<ReturnType<typeof controlsDesktop>>;
  // A budget that reads every text: what is read under a short one is the next story's.
  beforeAll(async () => void (desktop = await controlsDesktop(size, 5_000)), 90_000);
  afterAll(() => desktop?.close());

  it("marks every control with its kind and its label read whole, and plain text as text alone", async () => {
    // Read afresh at this size, not remembered from the other.
    (await TextRecognizer.shared()).forget();
    const elements = await desktop.computer.elements();
    const { controls, plain } = desktop.controls;
    expect(controls.length).toBeGreaterThanOrEqual(20);
    for (const control of controls) expect(markOf(elements, control), `${control.kind} ${control.name}`).toMatchObject({ kind: control.kind, label: control.label });
    // Icon-only buttons of every shape, the trash can among them, have marks with no words.
    expect(controls.filter((c) => c.label === "").map((c) => c.name)).toEqual(["Trash", "Star", "Play", "Add", "Record"]);
    for (const text of plain) {
      const on = marksOn(elements, text.box);
      expect(on.map((e) => [e.kind, e.label]), text.text).toEqual([["text", text.text]]);
    }
  }, 60_000);
});

describe("Set-of-Mark under two busy loops", () => {
  let desktop: Awaited<ReturnType<typeof controlsDesktop>>;
  const loops: ChildProcess[] = [];
  beforeAll(async () => {
    desktop = await controlsDesktop({ width: 1280, height: 800 }, 300);
    for (let i = 0; i < 2; i++) loops.push(spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore" }));
  }, 90_000);
  afterAll(async () => {
    for (const loop of loops) loop.kill();
    await desktop?.close();
  });

  it("reads every label and every plain text of the window on the first look", async () => {
    // A first look: nothing read before is remembered.
    (await TextRecognizer.shared()).forget();
    const first = await desktop.computer.elements();
    for (const control of desktop.controls.controls) expect(markOf(first, control), `${control.kind} ${control.name}`).toMatchObject({ kind: control.kind, label: control.label });
    // The controls' labels are read whatever they cost; the plain text, in the OCR budget, which
    // starts once the regions are known, and in one batch of free text that a look always reads.
    for (const text of desktop.controls.plain) expect(marksOn(first, text.box).map((e) => [e.kind, e.label]), text.text).toEqual([["text", text.text]]);
  }, 120_000);
});

describe("Set-of-Mark on a web page", () => {
  it("adds the controls only the pixels show to the DOM's, without doubling the DOM's own", async () => {
    await onFixtureScreen(async (page) => {
      await page.navigate(pages.url("canvas-controls.html"));
      const elements = await page.elements();
      expect(elements.filter((e) => iou(e.box, { x: 100, y: 100, width: 120, height: 40 }) > 0.3)).toEqual([expect.objectContaining({ id: 1, kind: "button", label: "Confirm" })]);
      const drawn = bestMatch(elements, { x: 440, y: 340, width: 140, height: 50 });
      expect(iou(drawn.box, { x: 440, y: 340, width: 140, height: 50 })).toBeGreaterThanOrEqual(0.5);
      expect(drawn).toMatchObject({ id: 2, kind: "button", label: "Play" });
    });
  }, 30_000);
});

describe("an OmniParser server (OMNIPARSER_URL)", () => {
  let server: Server;
  let url: string;
  const received: { path: string; image: { width: number; height: number } }[] = [];
  let failing = false;
  beforeAll(async () => {
    // Answers as omnitool/omniparserserver does: ratios [x1, y1, x2, y2] of the image sent.
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { base64_image: string };
        received.push({ path: req.url ?? "", image: imageSize(Buffer.from(body.base64_image, "base64")) });
        if (failing) return void res.writeHead(500, { "content-type": "application/json" }).end('{"detail":"CUDA out of memory"}');
        res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            som_image_base64: body.base64_image,
            parsed_content_list: [
              { type: "text", bbox: [0.5, 0.5, 0.6, 0.525], interactivity: false, content: "Quarterly report", source: "box_ocr_content_ocr" },
              { type: "icon", bbox: [0.1, 0.1, 0.125, 0.14], interactivity: true, content: "a magnifying glass for search", source: "box_yolo_content_yolo" },
              { type: "icon", bbox: [0.2, 0.1, 0.26, 0.15], interactivity: true, content: "Open", source: "box_yolo_content_ocr" },
            ],
            latency: 0.42,
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("replaces the built-in detector: its boxes become screen pixels, interactive ones kept first", async () => {
    const parsed = await DesktopComputer.open({ display: display.name, jpegQuality: 80, liveFps: 1, minIntervalMs: 0, som: { maxElements: 2, ocrBudgetMs: 300, omniparserUrl: url, omniparserTimeoutMs: 5_000 } });
    try {
      expect(await parsed.elements()).toEqual([
        { id: 1, kind: "icon", label: "a magnifying glass for search", box: { x: 128, y: 80, width: 32, height: 32 } },
        { id: 2, kind: "icon", label: "Open", box: { x: 256, y: 80, width: 77, height: 40 } },
      ]);
      expect(received.at(-1)).toEqual({ path: "/parse/", image: { width: 1280, height: 800 } });
      failing = true;
      await expect(parsed.elements()).rejects.toMatchObject({ code: "MODEL_HTTP_ERROR", message: `OmniParser at ${url}/parse/ answered HTTP 500: {"detail":"CUDA out of memory"}` });
    } finally {
      failing = false;
      await parsed.close();
    }
  });
});
