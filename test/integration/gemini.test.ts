// Gemini computer use, against a scripted server speaking generateContent as its REST reference
// describes it (the server refuses a body with a field the reference does not have): the computerUse
// tool, the task and screenshot as inlineData, function calls on the 0–999 grid driving a real page,
// each answered by a functionResponse with the URL and the screenshot after it; an answer asking the
// person waits for them; a flagged call waits for approval and is acknowledged.
import { describe, expect, it } from "vitest";
import { GeminiComputerUse } from "../../src/models/gemini/computer-use.ts";
import type { Content, FunctionResponsePart, GenerateContentRequest } from "../../src/models/gemini/generate-content.ts";
import { gridOf } from "../../src/perception/grids.ts";
import { imageSize } from "../../src/perception/image-size.ts";
import type { SessionEvent, TaskReply } from "../../src/protocol/index.ts";
import type { RecordedRequest, Reply } from "../support/scripted-model.ts";
import { gate } from "../support/gate.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const gemini = { model: { provider: "gemini" as const, name: "gemini-test", apiKey: "gm-test-key" } };
const { model, pages, app } = useWorld({ config: gemini });

const screen = { width: 1280, height: 800 };
const usageMetadata = { promptTokenCount: 1500, candidatesTokenCount: 30, totalTokenCount: 1530 };
/** A reply of Gemini's: its words, then these function calls. */
const calls = (text: string, ...fns: { name: string; args?: Record<string, unknown> }[]): Reply => ({
  message: {
    candidates: [
      {
        content: { role: "model", parts: [...(text ? [{ text }] : []), ...fns.map((fn) => ({ functionCall: { name: fn.name, args: fn.args ?? {} } }))] },
        finishReason: "STOP",
        index: 0,
      },
    ],
    usageMetadata,
    modelVersion: "gemini-test",
  },
});
const say = (text: string): Reply => calls(text);
/** A point of the screen on Gemini's grid. */
const grid = (x: number, y: number): Record<string, unknown> => ({ ...gridOf("norm999").fromPixels({ x, y }, screen) });
const body = (r: RecordedRequest) => r.body as unknown as GenerateContentRequest;
const taskOf = (task: string) => (r: RecordedRequest) => JSON.stringify(body(r).contents?.[0]).includes(`Task: ${task}`);
const responsesIn = (content: Content | undefined) =>
  ((content?.parts ?? []) as FunctionResponsePart[]).flatMap((p) => ("functionResponse" in p ? [p.functionResponse] : []));

async function start(session: string, task: string, startUrl: string, ...replies: Reply[]) {
  model.route(taskOf(task), ...replies);
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text: task, start_url: startUrl });
  const events = await openStream(app.url, session, 0);
  return { id: json.task_id, events, requests: () => model.requests.filter(taskOf(task)) };
}

describe("Gemini computer use", () => {
  it("searches, scrolls, navigates and clicks on real pages through its predefined functions, then answers", async () => {
    const task = "search for red shoes, then press the form's button";
    const { id, events, requests } = await start(
      "s-gemini",
      task,
      pages.url("search.html"),
      calls("Searching for red shoes.", { name: "type_text_at", args: { ...grid(300, 120), text: "red shoes", press_enter: true } }),
      calls("Scrolling down the results.", { name: "scroll_at", args: { ...grid(640, 400), direction: "down", magnitude: 500 } }),
      calls("Opening the form.", { name: "navigate", args: { url: pages.url("form.html") } }),
      calls("Pressing the button.", { name: "click_at", args: grid(200, 130) }),
      say("Searched for **red shoes** and pressed the button."),
    );
    const end = await events.waitForEnd(id);
    events.close();
    expect(end).toMatchObject({ type: "task.completed", answer: "Searched for **red shoes** and pressed the button." });
    // The old text was cleared before typing; Enter submitted the search.
    await pages.waitForRecord("searched:red shoes");
    await pages.waitForRecord("scrolled");
    await pages.waitForRecord("clicked");
    const { json: stored } = await app.api<TaskReply>("GET", `/api/tasks/${id}`);
    expect(stored.steps.map((s) => s.action?.type)).toEqual(["click", "keypress", "keypress", "type", "keypress", "scroll", "navigate", "click", "done"]);
    expect(stored.steps.every((s) => s.planner === "gemini:gemini-test")).toBe(true);
    expect(stored.steps[0]).toMatchObject({ cursor_x: 300, cursor_y: 120 });
    expect(stored.steps[7]).toMatchObject({ cursor_x: 200, cursor_y: 130 });
    expect(stored.task).toMatchObject({ model: "gemini:gemini-test", usage: { input_tokens: 5 * 1500, output_tokens: 5 * 30 } });

    const sent = requests();
    expect(sent).toHaveLength(5);
    const first = sent[0]!;
    expect(first.path).toBe("/v1/models/gemini-test:generateContent");
    expect(first.headers["x-goog-api-key"]).toBe("gm-test-key");
    expect(first.headers.authorization).toBeUndefined();
    expect(Object.keys(body(first)).sort()).toEqual(["contents", "systemInstruction", "tools"]);
    expect(body(first).tools).toEqual([{ computerUse: { environment: "ENVIRONMENT_BROWSER" } }]);
    expect(body(first).systemInstruction.parts[0]!.text).toContain("tell you when they are done");
    expect(body(first).contents).toEqual([
      {
        role: "user",
        parts: [{ text: `Task: ${task}\nThe browser shows ${pages.url("search.html")}.\nThe current screen:` }, { inlineData: { mimeType: "image/jpeg", data: expect.any(String) } }],
      },
    ]);

    // The typing's five steps are one call: answered once, after the last, with the URL and the screen then.
    const second = body(sent[1]!).contents;
    expect(second.map((c) => c.role)).toEqual(["user", "model", "user"]);
    expect(second[1]!.parts).toEqual([{ text: "Searching for red shoes." }, { functionCall: { name: "type_text_at", args: expect.objectContaining({ text: "red shoes" }) } }]);
    const [typed] = responsesIn(second[2]);
    expect(typed).toEqual({ name: "type_text_at", response: { url: pages.url("search.html") }, parts: [{ inlineData: { mimeType: "image/jpeg", data: expect.any(String) } }] });
    expect(imageSize(Buffer.from(typed!.parts![0]!.inlineData.data, "base64"))).toEqual(screen);
    expect(responsesIn(body(sent[3]!).contents.at(-1))[0]).toMatchObject({ name: "navigate", response: { url: pages.url("form.html") } });

    // Only the three newest turns keep their screenshots.
    const last = JSON.stringify(body(sent[4]!).contents);
    expect(last.match(/"inlineData"/g)).toHaveLength(3);
    expect(body(sent[4]!).contents[0]!.parts[1] as unknown).toEqual({ text: "(an earlier screenshot, no longer shown)" });
    expect(responsesIn(body(sent[4]!).contents[2])[0]).not.toHaveProperty("parts");
  });

  it("speaks Gemini 3.5's own functions by its model name: click, type, scroll in pixels, a held button, a chord of held keys", async () => {
    const task = "search for blue shoes in the 2026 set, then press the form's button";
    model.route(
      taskOf(task),
      calls("", { name: "click", args: { ...grid(300, 120), intent: "Putting the caret in the search field." } }),
      calls("", { name: "key_down", args: { key: "control", intent: "Selecting the old text." } }, { name: "key_down", args: { key: "a" } }, { name: "key_up", args: { key: "a" } }, { name: "key_up", args: { key: "control" } }),
      calls("", { name: "type", args: { text: "blue shoes", press_enter: true, intent: "Searching for blue shoes." } }),
      calls("", { name: "scroll", args: { ...grid(640, 400), direction: "down", magnitude_in_pixels: 400, intent: "Scrolling the results." } }),
      calls("", { name: "navigate", args: { url: pages.url("form.html"), intent: "Opening the form." } }),
      calls("", { name: "mouse_down", args: { ...grid(200, 130), intent: "Pressing the button." } }, { name: "mouse_up", args: { ...grid(200, 130), intent: "Letting go." } }),
      say("Searched for **blue shoes** and pressed the button."),
    );
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", {
      mode: "task",
      session_id: "s-gemini-2026",
      text: task,
      start_url: pages.url("search.html"),
      model: { provider: "gemini", name: "gemini-3.5-flash" },
    });
    const events = await openStream(app.url, "s-gemini-2026", 0);
    expect(await events.waitForEnd(json.task_id)).toMatchObject({ type: "task.completed", answer: "Searched for **blue shoes** and pressed the button." });
    events.close();
    await pages.waitForRecord("searched:blue shoes");
    await pages.waitForRecord("clicked");
    const { json: stored } = await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
    expect(stored.steps.map((s) => [s.action?.type, s.action?.args])).toEqual([
      ["click", { x: 300, y: 120, button: "left" }],
      ["keypress", { keys: ["Control", "a"] }],
      ["type", { text: "blue shoes" }],
      ["keypress", { keys: ["Enter"] }],
      ["scroll", { x: 640, y: 400, scroll_x: 0, scroll_y: 400 }],
      ["navigate", { url: pages.url("form.html") }],
      ["click", { x: 200, y: 130, button: "left" }],
      ["done", { answer: "Searched for **blue shoes** and pressed the button." }],
    ]);
    // Each call's own intent is what the person reads as progress.
    expect(stored.steps[0]!.text).toBe("Putting the caret in the search field.");
    expect(stored.steps[2]!.text).toBe("Searching for blue shoes.");
    expect(stored.steps.every((s) => s.planner === "gemini:gemini-3.5-flash")).toBe(true);

    const sent = model.requests.filter(taskOf(task));
    expect(sent[0]!.path).toBe("/v1/models/gemini-3.5-flash:generateContent");
    expect(body(sent[0]!).tools).toEqual([{ computerUse: { environment: "ENVIRONMENT_BROWSER" } }]);
    // A key held down is answered at once with the screen; the chord runs when the last key is up.
    expect(responsesIn(body(sent[2]!).contents.at(-1)).map((r) => r.name)).toEqual(["key_down", "key_down", "key_up", "key_up"]);
  });

  it("answers a call it cannot carry out with the reason, and opening the browser with the screen, without a step", async () => {
    const { id, events, requests } = await start(
      "s-gemini-refuse",
      "click off the grid",
      pages.url("form.html"),
      calls("", { name: "open_web_browser" }, { name: "click_at", args: { x: 1200, y: 10 } }),
      say("I could not do it."),
    );
    expect(await events.waitForEnd(id)).toMatchObject({ type: "task.completed", answer: "I could not do it." });
    events.close();
    const answered = responsesIn(body(requests()[1]!).contents.at(-1));
    expect(answered).toEqual([
      { name: "open_web_browser", response: { url: pages.url("form.html") }, parts: [{ inlineData: expect.any(Object) }] },
      { name: "click_at", response: { error: "(1200, 10) is off the 0–999 grid", url: pages.url("form.html") } },
    ]);
  });

  it("asks the person when its answer tells them to act, and goes on once they have, telling the model", async () => {
    const ask = "Please sign in to your account, then let me know when you are done.";
    const { id, events, requests } = await start("s-gemini-ask", "sign in and press the button", pages.url("form.html"), say(ask), calls("Pressing.", { name: "click_at", args: grid(200, 130) }), say("Signed in and pressed."));
    const waiting = await events.waitFor((e) => e.type === "task.awaiting_user");
    expect(waiting).toMatchObject({ task_id: id, answer: ask, show_ack_button: true });
    expect((await app.api<TaskReply>("GET", `/api/tasks/${id}`)).json.task.status).toBe("awaiting_user");
    expect(requests()).toHaveLength(1);

    expect((await app.api("POST", "/api/chat/ack-user-action", { task_id: id, text: "I've done it" })).status).toBe(202);
    expect(await events.completes(id)).toMatchObject({ answer: "Signed in and pressed." });
    events.close();
    await pages.waitForRecord("clicked");
    const resumed = body(requests()[1]!).contents;
    expect(resumed.at(-2)).toEqual({ role: "model", parts: [{ text: ask }] });
    expect(resumed.at(-1)).toEqual({
      role: "user",
      parts: [{ text: "The person was asked to act and answered: I've done it" }, { text: "The screen now:" }, { inlineData: { mimeType: "image/jpeg", data: expect.any(String) } }],
    });
  });

  it("holds a call Gemini wants confirmed until the person approves, then acknowledges it in the function response", async () => {
    const explanation = "The button may submit a payment.";
    const clicks = pages.records.filter((r) => r === "clicked").length;
    const { id, events, requests } = await start(
      "s-gemini-confirm",
      "press the pay button",
      pages.url("form.html"),
      calls("Pressing pay.", { name: "click_at", args: { ...grid(200, 130), safety_decision: { decision: "require_confirmation", explanation } } }),
      say("Paid."),
    );
    const asked = (await events.waitFor((e) => e.type === "approval.requested")) as Extract<SessionEvent, { type: "approval.requested" }>;
    expect(asked.approval).toMatchObject({ checks: [{ id: "click_at", code: "require_confirmation", message: explanation }], action: { type: "click", args: { x: 200, y: 130 } } });
    expect(pages.records.filter((r) => r === "clicked")).toHaveLength(clicks);
    expect((await app.api("POST", "/api/chat/approve", { task_id: id, approval_id: asked.approval.id, approved: true })).status).toBe(202);
    expect(await events.completes(id)).toMatchObject({ answer: "Paid." });
    events.close();
    expect(pages.records.filter((r) => r === "clicked")).toHaveLength(clicks + 1);
    expect(responsesIn(body(requests()[1]!).contents.at(-1))).toEqual([
      { name: "click_at", response: { url: pages.url("form.html"), safety_acknowledgement: "true" }, parts: [{ inlineData: expect.any(Object) }] },
    ]);
  });

  it("stops without acting when the person refuses a call Gemini wants confirmed", async () => {
    const { id, events } = await start(
      "s-gemini-refused",
      "type the card number",
      pages.url("form.html"),
      calls("Typing.", { name: "type_text_at", args: { ...grid(250, 240), text: "4111", safety_decision: { decision: "require_confirmation", explanation: "Typing a card number." } } }),
    );
    const asked = (await events.waitFor((e) => e.type === "approval.requested")) as Extract<SessionEvent, { type: "approval.requested" }>;
    await app.api("POST", "/api/chat/approve", { task_id: id, approval_id: asked.approval.id, approved: false });
    expect(await events.waitForEnd(id)).toMatchObject({ type: "task.stopped", reason: "the person did not approve: Typing a card number." });
    events.close();
    expect(pages.records).not.toContain("typed:4111");
  });

  it("tells the model what the person added, and does not carry out the calls it made before it knew", async () => {
    const task = "type a name";
    const { held, open: release } = gate();
    const typedBefore = pages.records.filter((r) => r === "typed:Ada").length;
    const { id, events, requests } = await start(
      "s-gemini-follow",
      task,
      pages.url("form.html"),
      { ...calls("Pressing, then typing Ada.", { name: "click_at", args: grid(200, 130) }, { name: "type_text_at", args: { ...grid(250, 240), text: "Ada" } }), until: held },
      say("I will type Grace instead."),
    );
    while (requests().length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await app.api("POST", "/api/chat/send", { mode: "task", session_id: "s-gemini-follow", text: "use Grace, not Ada" })).status).toBe(202);
    await events.waitFor((e) => e.type === "task.follow_up");
    release();
    await events.completes(id);
    events.close();
    await pages.waitForRecord("clicked");
    expect(pages.records.filter((r) => r === "typed:Ada")).toHaveLength(typedBefore);
    const told = body(requests()[1]!).contents.at(-1)!;
    expect(told.parts).toEqual([
      { functionResponse: { name: "click_at", response: { url: pages.url("form.html") }, parts: [{ inlineData: expect.any(Object) }] } },
      { functionResponse: { name: "type_text_at", response: { error: "Not carried out: the person added to the task before this action ran.", url: pages.url("form.html") } } },
      { text: expect.stringContaining("- use Grace, not Ada") },
    ]);
  });

  it("carries out none of Gemini's calls once the person took the screen, and shows it the screen after Resume", async () => {
    const task = "press and type while I take over";
    const { held, open } = gate();
    model.route(taskOf(task), { ...calls("", { name: "click_at", args: grid(200, 130) }, { name: "type_text_at", args: { ...grid(250, 240), text: "Grace" } }), until: held }, say("Left it to you."));
    const clicked = pages.records.filter((r) => r === "clicked").length;
    const events = await openStream(app.url, "s-gemini-takeover", 0);
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-gemini-takeover", text: task, start_url: pages.url("form.html") });
    await expect.poll(() => model.requests.some(taskOf(task)), { timeout: 15_000 }).toBe(true);
    expect((await app.api("POST", "/api/chat/takeover", { task_id: json.task_id })).status).toBe(202);
    open();
    await events.waitFor((e) => e.type === "task.takeover" && e.task_id === json.task_id);
    expect((await app.api("POST", "/api/chat/resume", { task_id: json.task_id })).status).toBe(202);
    expect(await events.completes(json.task_id, 30_000)).toMatchObject({ answer: "Left it to you." });
    events.close();
    expect(pages.records.filter((r) => r === "clicked").length).toBe(clicked);
    expect(pages.records).not.toContain("typed:Grace");
    const notDone = { error: "Not carried out: the person took over the screen before it." };
    expect(body(model.requests.filter(taskOf(task))[1]!).contents.at(-1)!.parts).toEqual([
      { functionResponse: { name: "click_at", response: notDone } },
      { functionResponse: { name: "type_text_at", response: notDone } },
      { text: "The screen now:" },
      { inlineData: { mimeType: "image/jpeg", data: expect.any(String) } },
    ]);
  });

  it("waits as long as Gemini's RetryInfo says after a 429, then goes on", async () => {
    const quota = {
      error: {
        code: 429,
        message: "You exceeded your current quota.",
        status: "RESOURCE_EXHAUSTED",
        details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "1s" }],
      },
    };
    const { id, events, requests } = await start("s-gemini-quota", "wait out the quota", pages.url("form.html"), { status: 429, body: JSON.stringify(quota) }, say("Done after the wait."));
    expect(await events.completes(id)).toMatchObject({ answer: "Done after the wait." });
    events.close();
    const [limited, again] = requests();
    // The test app's own backoff is 20 ms: only the body's retryDelay makes it wait a second.
    expect(again!.at - limited!.answeredAt!).toBeGreaterThanOrEqual(950);
  });

  it("fails the task, saying why, when Gemini blocks the request", async () => {
    const { id, events } = await start("s-gemini-blocked", "something blocked", pages.url("form.html"), {
      message: { promptFeedback: { blockReason: "PROHIBITED_CONTENT" }, usageMetadata: { promptTokenCount: 10 } },
    });
    const end = await events.waitForEnd(id);
    events.close();
    expect(end).toMatchObject({ type: "task.failed", error: { code: "PLANNER_INVALID_OUTPUT", message: "Gemini gave no answer (the request was blocked: PROHIBITED_CONTENT)." } });
  });

  it("on a desktop leaves out the browser's functions and tells the focused window", async () => {
    const planner = new GeminiComputerUse({ endpoint: { baseUrl: model.baseUrl, apiKey: "gm-test-key", policy: { timeoutMs: 5_000, retries: 0, backoffMs: 10 } }, model: "gemini-test" });
    model.route(taskOf("open the notes"), calls("Opening the notes.", { name: "click_at", args: { x: 500, y: 500 } }));
    const screenshot = { data: Buffer.from("not really a jpeg"), mimeType: "image/jpeg" as const, width: 1024, height: 768 };
    const turn = await planner.next(
      { task: "open the notes", attachments: [], step: 1, history: [], screenshot, url: null, window: { title: "notes.txt - Mousepad", app: "Mousepad" } },
      AbortSignal.timeout(10_000),
    );
    expect(turn.action).toMatchObject({ type: "click", args: { x: 512, y: 384 } });
    const sent = body(model.requests.filter(taskOf("open the notes"))[0]!);
    expect(sent.tools).toEqual([{ computerUse: { environment: "ENVIRONMENT_BROWSER", excludedPredefinedFunctions: ["open_web_browser", "navigate", "go_back", "go_forward", "search"] } }]);
    expect(sent.systemInstruction.parts[0]!.text).toContain("a computer's desktop");
    expect(sent.contents[0]!.parts[0]).toEqual({ text: 'Task: open the notes\nActive window: "notes.txt - Mousepad" (Mousepad)\nThe current screen:' });
  });
});
