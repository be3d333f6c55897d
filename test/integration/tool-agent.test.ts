// The browser tool agent (seed 001): the chat model calls tools — ariaTree, act, fillForm,
// screenshot, click, dragAndDrop, wait, extract, close — one step each, on real pages; each step
// is recorded with its tool call, the model's context is compressed, and the run ends with close.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { DELTA_MARK } from "../../src/perception/page-view/delta.ts";
import type { TaskReply } from "../../src/protocol/index.ts";
import { systemText, userText, type RecordedRequest, type Reply, type Responder } from "../support/scripted-model.ts";
import { startApp } from "../support/app.ts";
import { openStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

// A generous model timeout: the scripted model runs in this process, and a long synchronous stretch
// (the tokenizer loading on a busy machine) would fire a short one first, and the retry would take the next answer.
const { model, pages, app } = useWorld({ config: { model: { timeoutMs: 60_000 } } });

const calls = (...list: [string, unknown][]): Reply => ({ chat: { calls: list.map(([name, args]) => ({ name, arguments: args })) } });
const agentOf = (goal: string) => (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a web automation agent") && JSON.stringify(r.body.messages[1]).includes(`Goal: ${goal}`);
const chooserOn = (page: string) => (r: RecordedRequest) => systemText(r).startsWith("You choose elements") && userText(r).includes(page);

/** The ref the tree in the request gives an element, as a model reading it would find it. */
function refIn(request: RecordedRequest, role: string, name: string): string {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const ref = new RegExp(`- ${role} "${escaped}"[^\\n]*\\[ref=([a-z0-9]+)\\]`).exec(userText(request))?.[1];
  if (!ref) throw new Error(`no ${role} "${name}" in the tree`);
  return ref;
}
const choose = (role: string, name: string, method: string, value?: string): Responder => (r) => ({
  text: JSON.stringify({ ref: refIn(r, role, name), method, ...(value === undefined ? {} : { value }) }),
});

/** Runs a task to its end. */
async function run(session: string, goal: string, start: string, agentMode: "dom" | "hybrid") {
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", agent_mode: agentMode, session_id: session, text: goal, start_url: pages.url(start) });
  const events = await openStream(app.url, session, 0);
  // The first task of the file loads the tokenizer and a browser: on a busy machine, well over the usual wait.
  const end = await events.waitForEnd(json.task_id, 90_000);
  events.close();
  const { json: stored } = await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
  return { end, stored, requests: model.requests.filter(agentOf(goal)), events: events.events };
}

describe("the tool agent in dom mode", () => {
  it("reads the ARIA tree, fills a long form with fillForm, submits with act and closes", async () => {
    const goal = "Sign Ada Lovelace up on the form";
    model.route(
      agentOf(goal),
      calls(["ariaTree", {}]),
      calls(["ariaTree", {}]),
      calls([
        "fillForm",
        {
          fields: [
            { action: "the First name field", value: "Ada" },
            { action: "the Last name field", value: "Lovelace" },
            { action: "the Email field", value: "ada@example.org" },
            { action: "the Country select", value: "United Kingdom" },
            { action: "the I accept the terms checkbox", value: "true" },
          ],
        },
      ]),
      calls(["act", { action: "click the Submit button" }]),
      calls(["close", { reasoning: "Ada Lovelace is signed up.", taskComplete: true }]),
    );
    model.route(
      chooserOn("long-form.html"),
      (r) => ({
        text: JSON.stringify({
          fields: [
            { ref: refIn(r, "textbox", "First name"), method: "fill", value: "Ada" },
            { ref: refIn(r, "textbox", "Last name"), method: "fill", value: "Lovelace" },
            { ref: refIn(r, "textbox", "Email"), method: "fill", value: "ada@example.org" },
            { ref: refIn(r, "combobox", "Country"), method: "select", value: "United Kingdom" },
            { ref: refIn(r, "checkbox", "I accept the terms"), method: "check" },
          ],
        }),
      }),
      choose("button", "Submit", "click"),
    );
    const { end, stored, requests } = await run("s-tools-form", goal, "long-form.html", "dom");
    expect(end).toMatchObject({ type: "task.completed", answer: "Ada Lovelace is signed up." });
    await pages.waitForRecord(
      'submitted:{"firstName":"Ada","lastName":"Lovelace","email":"ada@example.org","phone":"","dob":"","street":"","city":"","postcode":"","country":"GB","plan":"","about":"","terms":true}',
    );

    expect(stored.task).toMatchObject({ mode: "dom", model: "scripted-vl (dom tools)", current_step_index: 5 });
    expect(stored.steps.map((s) => [s.tool?.name, s.tool?.ok, s.action])).toEqual([
      ["ariaTree", true, null],
      ["ariaTree", true, null],
      ["fillForm", true, null],
      ["act", true, null],
      ["close", true, null],
    ]);
    expect(stored.steps[0]!.tool!.output).toMatchObject({ view: expect.stringContaining('textbox "First name"') });
    expect(stored.steps[3]!.tool).toMatchObject({ input: { action: "click the Submit button" }, output: { method: "click", locator: expect.stringContaining("Submit") } });
    expect(stored.steps.every((s) => s.screenshot !== null)).toBe(true);

    // dom mode offers no coordinate tools; the request is Chat Completions with function tools.
    const offered = (requests[0]!.body.tools as { function: { name: string } }[]).map((t) => t.function.name).sort();
    expect(offered).toEqual(["act", "ariaTree", "askUser", "close", "closeTab", "extract", "fillForm", "goto", "keys", "navback", "newTab", "readArtifact", "screenshot", "scroll", "switchTab", "tabs", "think", "upload", "wait"]);
    // Each result went back as the tool's message: {ok, data}, and the page view after it as plain
    // text, never escaped into the JSON.
    const reply = requests[1]!.body.messages.at(-1) as unknown as { role: string; tool_call_id: string; content: string };
    expect(reply).toMatchObject({ role: "tool", tool_call_id: "call_1" });
    const [head, ...view] = reply.content.split("\n");
    expect(JSON.parse(head!)).toMatchObject({ ok: true, data: { pageUrl: pages.url("long-form.html"), more: false } });
    expect(view.join("\n")).toMatch(/^- textbox "First name" \[ref=e\d+\]$/m);
    // A label that only repeats its control's name is not said twice.
    expect(view.join("\n")).not.toMatch(/^- (generic|text): First name$/m);
    // The same view again comes as its changes (none), and the view they apply to stays in context.
    const again = requests[2]!.body.messages.filter((m) => m.role === "tool").map((m) => String(m.content));
    expect(again[1]).toContain(`${DELTA_MARK}: nothing changed.`);
    expect(again[0]).toBe(reply.content);
  });

  it("acts on controls inside an iframe and inside a shadow root by their refs", async () => {
    const goal = "Press the inner button and rate five stars";
    model.route(agentOf(goal), calls(["act", { action: "click Inner button" }]), calls(["goto", { url: pages.url("shadow.html") }]), calls(["act", { action: "click Rate 5 stars" }]), calls(["close", { reasoning: "Done.", taskComplete: true }]));
    model.route(chooserOn("iframe.html"), choose("button", "Inner button", "click"));
    model.route(chooserOn("shadow.html"), choose("button", "Rate 5 stars", "click"));
    const { end, stored } = await run("s-tools-frames", goal, "iframe.html", "dom");
    expect(end).toMatchObject({ type: "task.completed" });
    await pages.waitForRecord("inner-clicked");
    await pages.waitForRecord("rated:5");
    expect(stored.steps[1]).toMatchObject({ tool: { name: "goto" }, action: { type: "navigate" } });
  });

  it("answers a bad call with the reason, keeps only the latest ARIA tree in context, and fails when close says it could not", async () => {
    const goal = "Find a page that is not there";
    model.route(
      agentOf(goal),
      calls(["ariaTree", {}]),
      calls(["act", { nothing: true }]),
      calls(["ariaTree", {}]),
      calls(["fly", {}]),
      calls(["extract", { instruction: "codes", schema: { type: "string", pattern: "^(a+)+$" } }]),
      calls(["close", { reasoning: "There is no such page.", taskComplete: false }]),
    );
    const { end, stored, requests } = await run("s-tools-bad", goal, "form.html", "dom");
    expect(end).toMatchObject({ type: "task.failed", error: { code: "TASK_INCOMPLETE", message: "There is no such page." } });
    expect(stored.steps.map((s) => [s.tool?.name, s.tool?.ok, s.tool?.error?.code ?? null])).toEqual([
      ["ariaTree", true, null],
      ["act", false, "INVALID_ARGUMENTS"],
      ["ariaTree", true, null],
      ["fly", false, "UNKNOWN_TOOL"],
      ["extract", false, "INVALID_ARGUMENTS"],
      ["close", true, null],
    ]);
    const toolMessages = (r: RecordedRequest) => r.body.messages.filter((m) => m.role === "tool").map((m) => String(m.content));
    // The fourth request sees the first tree replaced and the second one whole.
    const fourth = toolMessages(requests[3]!);
    expect(fourth[0]).toContain('"omitted"');
    expect(fourth[2]).toContain('button "Press me"');
    expect(fourth[1]).toContain("INVALID_ARGUMENTS");
  });
});

describe("the tool agent in hybrid mode", () => {
  it("looks with screenshot, then clicks and types at points of it", async () => {
    const goal = "Press the button and type Ada";
    model.route(
      agentOf(goal),
      calls(["screenshot", {}]),
      calls(["click", { describe: "the Press me button", coordinates: [200, 130] }]),
      calls(["type", { describe: "the Name field", text: "Ada", coordinates: [250, 240] }]),
      calls(["close", { reasoning: "Pressed and typed.", taskComplete: true }]),
    );
    const { end, stored, requests } = await run("s-tools-hybrid", goal, "form.html", "hybrid");
    expect(end).toMatchObject({ type: "task.completed" });
    await pages.waitForRecord("clicked");
    await pages.waitForRecord("typed:Ada");
    expect(stored.steps[1]).toMatchObject({ action: { type: "click", args: { x: 200, y: 130 } }, cursor_x: 200, cursor_y: 130, tool: { name: "click" } });
    // Each is recorded as replay finds it again.
    expect(stored.steps[1]!.tool!.targets).toEqual([{ target: { locator: "getByRole('button', { name: 'Press me' })", xpath: '//*[@id="go"]', box: expect.any(Object) }, action: null }]);
    expect(stored.steps[2]!.tool!.targets).toEqual([{ target: { locator: "getByRole('textbox', { name: 'Name' })", xpath: '//*[@id="name"]', box: expect.any(Object) }, action: null }]);
    const offered = (requests[0]!.body.tools as { function: { name: string } }[]).map((t) => t.function.name).sort();
    expect(offered).toEqual(["act", "ariaTree", "askUser", "click", "clickAndHold", "close", "closeTab", "dragAndDrop", "extract", "fillFormVision", "goto", "keys", "navback", "newTab", "readArtifact", "screenshot", "scrollVision", "switchTab", "tabs", "think", "type", "upload", "wait"]);
    // Chat Completions takes no image in a tool message: it follows as a user message.
    const afterShot = requests[1]!.body.messages.slice(-2);
    expect(afterShot[0]).toMatchObject({ role: "tool" });
    expect(afterShot[1]).toMatchObject({ role: "user", content: [{ type: "text" }, { type: "image_url", image_url: { url: expect.stringMatching(/^data:image\/jpeg;base64,/) } }] });
  });

  it("drags a list item to a new place", async () => {
    const goal = "Move Dates to the top";
    // Dates' row is centred at (140, 271) and Apples' at (140, 121) on the 1280×800 screenshot.
    const drag = { describe: "Dates above Apples", startCoordinates: [140, 271], endCoordinates: [140, 105] };
    model.route(agentOf(goal), calls(["screenshot", {}]), calls(["dragAndDrop", drag]), calls(["close", { reasoning: "Moved.", taskComplete: true }]));
    const { end, stored } = await run("s-tools-drag", goal, "drag-list.html", "hybrid");
    expect(end).toMatchObject({ type: "task.completed" });
    await pages.waitForRecord("order:Dates,Apples,Bananas,Cherries");
    // Recorded as they were before the drag, which moved Cherries to where Dates was.
    expect(stored.steps[1]!.tool!.targets.map(({ target }) => target.locator)).toEqual(["getByText('Dates')", "getByText('Apples')"]);
  });
});

describe("waiting and extracting", () => {
  it("waits for a text on a slow page, then extracts data that follows a JSON Schema", async () => {
    const goal = "Wait for the results and read the heading";
    const schema = { type: "object", properties: { ready: { type: "boolean" } }, required: ["ready"] };
    model.route(
      agentOf(goal),
      calls(["wait", { load: true, timeMs: 8_000 }]),
      calls(["wait", { textIncludes: "Results ready", timeMs: 8_000 }]),
      calls(["extract", { instruction: "is it ready?", schema }]),
      calls(["extract", { instruction: "is it ready?", schema }]),
      calls(["close", { reasoning: "The results are ready.", taskComplete: true }]),
    );
    model.route((r) => systemText(r).startsWith("You extract data"), { text: '{"result": {"ready": "maybe"}}' }, { text: '{"result": {"ready": "no idea"}}' }, { text: '{"result": {"ready": true}}' });
    const { end, stored } = await run("s-tools-wait", goal, "slow.html", "dom");
    expect(end).toMatchObject({ type: "task.completed" });
    expect(stored.steps.map((s) => [s.tool?.name, s.tool?.ok])).toEqual([
      ["wait", true],
      ["wait", true],
      ["extract", false],
      ["extract", true],
      ["close", true],
    ]);
    expect(stored.steps[2]!.tool!.error).toMatchObject({ code: "SCHEMA_VALIDATION_FAILED" });
    expect(stored.steps[3]!.tool!.output).toEqual({ success: true, result: { ready: true } });
  });

  it("starts from the prepared page: the model first reads the page's reader text", async () => {
    const goal = "Summarise the article";
    model.route(agentOf(goal), calls(["close", { reasoning: "It is about night trains.", taskComplete: true }]));
    const { end, requests } = await run("s-tools-prep", goal, "article.html", "dom");
    expect(end).toMatchObject({ type: "task.completed" });
    const first = userText(requests[0]!);
    expect(first).toContain("Goal: Summarise the article");
    expect(first).toMatch(/Reader view of the page "[^"]+":\n/);
    expect(first).toContain("Oberhafen station");
    expect(first).not.toContain("Subscribe for");
  });

  it("stops at the step cap", async () => {
    const goal = "Think forever";
    const think = calls(["think", { reasoning: "hmm" }]);
    model.route(agentOf(goal), ...Array.from({ length: 20 }, () => think));
    const { end, stored } = await run("s-tools-cap", goal, "form.html", "dom");
    expect(end).toMatchObject({ type: "task.failed", error: { code: "STEP_LIMIT", message: "The task reached its limit of 15 steps." } });
    expect(stored.steps).toHaveLength(15);
  });
});

describe("what the tool agent is offered", () => {
  it("forces dom mode on a model without images, and offers search only with a search provider", async () => {
    const queries: { q: string | null; token: string | undefined }[] = [];
    const brave = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      queries.push({ q: url.searchParams.get("q"), token: req.headers["x-subscription-token"] as string | undefined });
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ web: { results: [{ title: "Night trains", url: "https://example.org/night", description: "Timetables" }] } }));
    });
    await new Promise<void>((resolve) => brave.listen(0, "127.0.0.1", resolve));
    const searchBaseUrl = `http://127.0.0.1:${(brave.address() as AddressInfo).port}/res/v1`;
    const blind = await startApp({ modelBaseUrl: model.baseUrl, config: { agent: { vision: false, searchApiKey: "brave-key", searchBaseUrl } } });
    try {
      const goal = "Search for night trains";
      model.route(agentOf(goal), calls(["search", { query: "night trains" }]), calls(["close", { reasoning: "Found timetables.", taskComplete: true }]));
      const { json } = await blind.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", agent_mode: "hybrid", session_id: "s-tools-blind", text: goal, start_url: pages.url("form.html") });
      const events = await openStream(blind.url, "s-tools-blind", 0);
      await events.completes(json.task_id);
      events.close();
      const { json: stored } = await blind.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
      expect(stored.task.mode).toBe("dom");
      const offered = (model.requests.find(agentOf(goal))!.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
      expect(offered).toContain("search");
      expect(offered).not.toContain("screenshot");
      expect(queries).toEqual([{ q: "night trains", token: "brave-key" }]);
      expect(stored.steps[0]!.tool!.output).toMatchObject({ results: [{ title: "Night trains", url: "https://example.org/night", snippet: "Timetables" }] });
    } finally {
      await blind.close();
      brave.close();
    }
  });
});
