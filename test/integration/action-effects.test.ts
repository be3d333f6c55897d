// After each action the screen is compared with what the model saw: a dead button is clicked
// again a few pixels off and the history says it did nothing; a small but real change (a
// checkbox, one digit) is not mistaken for none; a scroll that moves nothing is tried once the
// other way, then reported. A click that posts a form shows the page it led to.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { TaskReply } from "../../src/protocol/index.ts";
import { openStream } from "../support/sse.ts";
import { act, planningText, systemText, type RecordedRequest, type Reply } from "../support/scripted-model.ts";
import { useWorld } from "../support/world.ts";

const { model, pages, app } = useWorld();

function run(task: string, ...replies: Reply[]) {
  return runOn("effects.html", task, ...replies);
}

async function runOn(page: string, task: string, ...replies: Reply[]) {
  model.route((r) => planningText(r).includes(`Task: ${task}`), ...replies);
  const session = `s-${task.replace(/\W+/g, "-")}`;
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text: task, start_url: pages.url(page) });
  const events = await openStream(app.url, session, 0);
  await events.completes(json.task_id);
  events.close();
  const requests = model.requests.filter((r) => planningText(r).includes(`Task: ${task}`));
  const { json: stored } = await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
  return { requests, steps: stored.steps };
}

describe("the effect check", () => {
  it("clicks a dead button again, 3 px off each time, and tells the model it did nothing", async () => {
    const { requests, steps } = await run(
      "press the dead button",
      act("click", { x: 180, y: 125 }, "Pressing the dead button"),
      act("done", { answer: "ok" }),
    );
    // Once, then three times a few pixels off, and no more.
    await pages.waitForRecord("dead-clicks:4");
    expect(pages.records).not.toContain("dead-clicks:5");
    // The hover style is all that changed.
    expect(steps[0]?.effect).toMatchObject({ changed: false, structural: false, retries: 3, note: "retried 3 times a few pixels off" });
    expect(steps[0]!.effect!.ratio).toBeLessThan(0.02);
    expect(planningText(requests[1]!)).toContain(
      `Step 1: click (180, 125) "Pressing the dead button" → no change ✗ (retried 3 times a few pixels off)`,
    );
  });

  it("never double-clicks again when nothing changed: a program slow to open would open twice", async () => {
    const before = pages.records.length;
    const { steps } = await run("open the dead button", act("double_click", { x: 180, y: 125 }, "Opening the dead button"), act("done", { answer: "ok" }));
    await expect.poll(() => pages.records.slice(before)).toContain("dead-clicks:2");
    expect(pages.records.slice(before)).not.toContain("dead-clicks:3");
    expect(steps[0]?.effect).toMatchObject({ changed: false, retries: 0, note: null });
  });

  it("does not take a ticked checkbox or one changed digit for no change", async () => {
    const before = pages.records.length;
    const { steps } = await run(
      "tick and count",
      act("click", { x: 110, y: 210 }, "Ticking the box"),
      act("click", { x: 180, y: 280 }, "Counting"),
      act("done", { answer: "ok" }),
    );
    expect(pages.records.slice(before).filter((r) => !r.startsWith("dead"))).toEqual(["tick:true", "count:1"]);
    expect(steps.slice(0, 2).map((s) => s.effect)).toEqual([
      expect.objectContaining({ changed: true, structural: true, retries: 0 }),
      expect.objectContaining({ changed: true, structural: true, retries: 0 }),
    ]);
  });

  it("tries a scroll that moves nothing once the other way, then reports that nothing scrolls there", async () => {
    const before = pages.records.length;
    const { requests, steps } = await run("scroll down", act("scroll", { x: 640, y: 400, scroll_y: 500 }, "Scrolling down"), act("done", { answer: "ok" }));
    const note = "nothing moved scrolling down, nor up: this place does not scroll";
    expect(steps[0]?.effect).toMatchObject({ changed: false, retries: 0, note });
    expect(planningText(requests[1]!)).toContain(`→ no change ✗ (${note})`);
    // Down once, up once, and no more.
    await expect.poll(() => pages.records.slice(before).filter((r) => r.startsWith("wheel"))).toEqual(["wheel:down", "wheel:up"]);
  });

  it("scrolls up instead when a page at its end is scrolled down, and tells the model so", async () => {
    const before = pages.records.length;
    const task = "scroll the list down";
    model.route((r) => planningText(r).includes(`Task: ${task}`), act("scroll", { x: 640, y: 400, scroll_y: 500 }, "Scrolling down"), act("done", { answer: "ok" }));
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-scroll-end", text: task, start_url: pages.url("scroll-end.html") });
    const events = await openStream(app.url, "s-scroll-end", 0);
    await events.completes(json.task_id);
    events.close();
    const { json: stored } = await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
    const note = "nothing moved scrolling down (the end was reached), so it scrolled up instead";
    expect(stored.steps[0]?.effect).toMatchObject({ changed: true, retries: 0, note });
    const next = model.requests.filter((r) => planningText(r).includes(`Task: ${task}`))[1]!;
    expect(planningText(next)).toContain(`Step 1: scroll (0, 500) at (640, 400) "Scrolling down" → changed ✓ (${note})`);
    // The page saw the turn down, then the one up, and rests off its end.
    await expect.poll(() => pages.records.slice(before).filter((r) => r.startsWith("wheel"))).toEqual(["wheel:down", "wheel:up"]);
    await expect.poll(() => pages.records.slice(before)).toContain("at-end:false");
  });
});

describe("the tool agent's scroll", () => {
  it("scrolls up instead when the page is at its end and it was asked down, and says so", async () => {
    const goal = "Scroll the long list down";
    const isAgent = (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a web automation agent") && JSON.stringify(r.body.messages[1]).includes(`Goal: ${goal}`);
    const calls = (name: string, args: unknown): Reply => ({ chat: { calls: [{ name, arguments: args }] } });
    model.route(isAgent, calls("scroll", { direction: "down" }), calls("close", { reasoning: "Scrolled.", taskComplete: true }));
    const before = pages.records.length;
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", agent_mode: "dom", session_id: "s-scroll-tool", text: goal, start_url: pages.url("scroll-end.html") });
    const events = await openStream(app.url, "s-scroll-tool", 0);
    await events.completes(json.task_id, 90_000);
    events.close();
    const answered = model.requests.filter(isAgent)[1]!.body.messages.filter((m) => m.role === "tool").at(-1)!.content as string;
    expect(JSON.parse(answered.split("\n")[0]!)).toMatchObject({
      ok: true,
      data: { scrolled: "up", message: expect.stringMatching(/^Nothing moved scrolling down \(the end was reached\), so it scrolled up by \d+ px instead\.$/) },
    });
    await expect.poll(() => pages.records.slice(before)).toContain("at-end:false");
  });
});

describe("a click that posts a form", () => {
  it("shows the model the page the form led to, not the form, though its server answers only after 3 s", async () => {
    const { requests, steps } = await runOn("slow-post.html", "post the slow form", act("click", { x: 200, y: 130 }, "Sending"), act("done", { answer: "ok" }));
    const posted = pages.url("slow-post?ms=3000");
    expect(steps[0]).toMatchObject({ url: posted, effect: { changed: true, seen: "navigation" } });
    expect(planningText(requests[1]!)).toContain(`Current URL: ${posted}\n`);
  });

  it("in a frame shows the page the frame's form led to, though the server answers after the wait for the network has given up", async () => {
    const { steps } = await runOn("slow-post-framed.html", "post the framed slow form", act("click", { x: 200, y: 130 }, "Sending"), act("done", { answer: "ok" }));
    // The step's screen: the frame shows the green page the post answered with, not the form.
    const shot = Buffer.from(await (await fetch(`${app.url}${steps[0]!.screenshot!.url}`)).arrayBuffer());
    const { data, info } = await sharp(shot).raw().toBuffer({ resolveWithObject: true });
    const at = (300 * info.width + 300) * info.channels;
    expect([data[at]! < 60, data[at + 1]! > 120, data[at + 2]! < 60]).toEqual([true, true, true]);
  });
});

describe("an action that closes the page it acted on", () => {
  it("is recorded as done, not failed, and the agent carries on with the page left behind", async () => {
    const before = pages.records.length;
    model.route(
      (r) => planningText(r).includes("Task: confirm in the popup"),
      act("click", { x: 150, y: 108 }, "Opening the confirmation"),
      act("click", { x: 200, y: 130 }, "Confirming"),
      act("done", { answer: "Confirmed." }),
    );
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-popup", text: "confirm in the popup", start_url: pages.url("opener.html") });
    const events = await openStream(app.url, "s-popup", 0);
    await events.completes(json.task_id);
    events.close();
    expect(pages.records.slice(before)).toContain("confirmed");
    const { json: stored } = await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`);
    expect(stored.steps.map((s) => s.text)).toEqual(["Opening the confirmation", "Confirming", "done step"]);
    expect(stored.steps[1]?.url).toBe(pages.url("opener.html"));
  });
});
