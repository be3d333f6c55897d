// The agent over AG-UI (POST /api/agui), driven by AG-UI's own client: a question streams the
// assistant's answer as a text message; a task streams its steps and the tool agent's calls, ends
// its run with an interrupt when it needs the person, and goes on in the next run, which answers
// the interrupt; an action that waits for approval does the same. The client checks the order of
// every event itself (its verifier refuses a stream that breaks AG-UI's rules).
import { HttpAgent, type BaseEvent, type Interrupt, type RunFinishedEvent } from "@ag-ui/client";
import { describe, expect, it } from "vitest";
import { INSTALL_TOKEN_HEADER, type TaskReply } from "../../src/protocol/index.ts";
import { act, planningText, systemText, type RecordedRequest, type Reply } from "../support/scripted-model.ts";
import { useWorld } from "../support/world.ts";

const { model, pages, app } = useWorld({ config: { model: { timeoutMs: 60_000 }, approvals: { delete: "ask" } } });

const calls = (...list: [string, unknown][]): Reply => ({ chat: { calls: list.map(([name, args]) => ({ name, arguments: args })) } });
const agentOf = (goal: string) => (r: RecordedRequest) => systemText(r).startsWith("<identity>You are a web automation agent") && JSON.stringify(r.body.messages[1]).includes(`Goal: ${goal}`);

function agentFor(threadId: string): HttpAgent {
  return new HttpAgent({ url: `${app.url}/api/agui`, threadId, headers: { [INSTALL_TOKEN_HEADER]: app.system.installToken } });
}

/** Runs the agent once; resolves with what the run streamed, in order. */
async function run(agent: HttpAgent, parameters: Parameters<HttpAgent["runAgent"]>[0] = {}): Promise<BaseEvent[]> {
  const events: BaseEvent[] = [];
  await agent.runAgent(parameters, { onEvent: ({ event }) => void events.push(event) });
  return events;
}

/** The run's story: its life, steps, tool calls and words; live frames, state and argument pieces left out. */
function story(events: BaseEvent[]): string[] {
  return events.flatMap((e) => {
    switch (e.type) {
      case "STEP_STARTED":
      case "STEP_FINISHED":
        return [`${e.type} ${String(e.stepName)}`];
      case "TOOL_CALL_START":
        return [`${e.type} ${String(e.toolCallName)}`];
      case "RUN_FINISHED":
        return [`${e.type} ${(e as unknown as RunFinishedEvent).outcome?.type ?? "success"}`];
      case "RUN_STARTED":
      case "RUN_ERROR":
      case "TOOL_CALL_RESULT":
      case "TEXT_MESSAGE_START":
      case "TEXT_MESSAGE_END":
        return [e.type];
      default:
        return [];
    }
  });
}

/** What the agent's steps make of a run, from the task's stored steps. */
async function storedSteps(taskId: string, from: number) {
  const { json } = await app.api<TaskReply>("GET", `/api/tasks/${taskId}`);
  return json.steps.filter((s) => s.index >= from).flatMap((s) => [`STEP_STARTED step ${s.index}`, ...(s.tool ? [`TOOL_CALL_START ${s.tool.name}`, "TOOL_CALL_RESULT"] : []), `STEP_FINISHED step ${s.index}`]);
}

describe("an AG-UI client", () => {
  it("asks a question and receives the assistant's answer as a streamed text message", async () => {
    const answer = "Paris is the capital of France, on the Seine.";
    model.chat({ chat: { text: answer, chunkDelayMs: 20 } });
    const agent = agentFor("s-agui-question");
    agent.addMessage({ id: "q1", role: "user", content: "What is the capital of France? (s-agui-question)" });
    const events = await run(agent);

    expect(story(events)).toEqual(["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_END", "RUN_FINISHED success"]);
    const pieces = events.filter((e) => e.type === "TEXT_MESSAGE_CONTENT").map((e) => String(e.delta));
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join("")).toBe(answer);
    expect(events[0]).toMatchObject({ type: "RUN_STARTED", threadId: "s-agui-question", protocolVersion: "1.0" });
    expect(agent.messages.at(-1)).toMatchObject({ role: "assistant", content: answer });
    // The thread is the session: the question and its answer are in its chat.
    const { json } = await app.api<{ messages: { role: string; text: string }[] }>("GET", "/api/sessions/s-agui-question/messages");
    expect(json.messages.map((m) => [m.role, m.text])).toEqual([
      ["user", "What is the capital of France? (s-agui-question)"],
      ["assistant", answer],
    ]);
  });

  it("runs a task: its steps and tool calls stream, it ends the run with an interrupt when it needs the person, and the next run resumes it", async () => {
    const goal = "Sign in to the form for me";
    model.route(
      agentOf(goal),
      calls(["ariaTree", {}]),
      calls(["askUser", { request: "Please sign in, then tell me." }]),
      calls(["close", { reasoning: "You are signed in.", taskComplete: true }]),
    );
    const agent = agentFor("s-agui-task");
    agent.addMessage({ id: "t1", role: "user", content: goal });
    const first = await run(agent, { forwardedProps: { mode: "task", agent_mode: "dom", start_url: pages.url("form.html") } });

    // The run ends waiting for the person, with AG-UI's interrupt outcome.
    const finished = first.at(-1) as unknown as RunFinishedEvent;
    expect(finished.type).toBe("RUN_FINISHED");
    expect(finished.outcome).toMatchObject({ type: "interrupt", interrupts: [{ reason: "awaiting_user", message: "Please sign in, then tell me." }] });
    const [interrupt] = agent.pendingInterrupts as [Interrupt];
    const taskId = String(interrupt.metadata?.task_id);
    expect(story(first).slice(0, 5)).toEqual(["RUN_STARTED", "STEP_STARTED step 1", "TOOL_CALL_START ariaTree", "TOOL_CALL_RESULT", "STEP_FINISHED step 1"]);
    expect(story(first).at(-1)).toBe("RUN_FINISHED interrupt");
    expect(agent.state).toMatchObject({ task: { id: taskId, status: "awaiting_user", step: 1 } });
    // The run watches the task, so its live view streams, as our own event.
    expect(first.find((e) => e.type === "CUSTOM" && e.name === "screen.live")).toMatchObject({ value: { task_id: taskId, frame: { url: expect.stringContaining("/api/") } } });
    expect((await app.api<TaskReply>("GET", `/api/tasks/${taskId}`)).json.task.status).toBe("awaiting_user");

    // The next run answers the interrupt; the task goes on from there to its end.
    const second = await run(agent, { resume: [{ interruptId: interrupt.id, status: "resolved", payload: { text: "I have signed in." } }] });
    expect(story(second)).toEqual(["RUN_STARTED", ...(await storedSteps(taskId, 2)), "TEXT_MESSAGE_START", "TEXT_MESSAGE_END", "RUN_FINISHED success"]);
    const asked = second.find((e) => e.type === "TOOL_CALL_RESULT");
    expect(String(asked?.content)).toContain("I have signed in.");
    expect(agent.pendingInterrupts).toEqual([]);
    expect(agent.state).toMatchObject({ task: { id: taskId, status: "completed" } });
    expect(agent.messages.at(-1)).toMatchObject({ role: "assistant", content: "You are signed in." });
  });

  it("follows a message the assistant hands to a task: the task's wait for the person interrupts the run, and the resumed run ends with the assistant's answer", async () => {
    const task = "Press the button on the form page for me";
    model.chat(
      { chat: { text: "I'll do that in the browser.", calls: [{ name: "computer_task", arguments: { task, start_url: pages.url("form.html"), max_steps: 5 } }] } },
      { chat: { text: "Done: you signed in and I pressed the button." } },
    );
    model.route(
      (r) => planningText(r).includes(`Task: ${task}`),
      act("needs_user", { answer: "Please sign in, then tell me." }, "Waiting for you"),
      act("click", { x: 200, y: 130 }, "Pressing the button"),
      act("done", { answer: "The button was pressed." }, "Finished"),
    );
    const agent = agentFor("s-agui-delegate");
    // The person names the page: an address only the assistant chose would be asked about first.
    agent.addMessage({ id: "d1", role: "user", content: `press the button on ${pages.url("form.html")} for me (s-agui-delegate)` });
    const first = await run(agent);
    expect(story(first).slice(0, 3)).toEqual(["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_END"]);
    expect(story(first).at(-1)).toBe("RUN_FINISHED interrupt");
    const [interrupt] = agent.pendingInterrupts as [Interrupt];
    expect(interrupt).toMatchObject({ reason: "awaiting_user", message: "Please sign in, then tell me." });
    const taskId = String(interrupt.metadata?.task_id);

    const second = await run(agent, { resume: [{ interruptId: interrupt.id, status: "resolved" }] });
    await pages.waitForRecord("clicked");
    const clickStep = (await storedSteps(taskId, 1)).slice(-4, -2);
    expect(story(second)).toEqual(expect.arrayContaining(clickStep));
    expect(story(second).slice(-3)).toEqual(["TEXT_MESSAGE_START", "TEXT_MESSAGE_END", "RUN_FINISHED success"]);
    expect(agent.messages.filter((m) => m.role === "assistant").map((m) => m.content)).toEqual(["I'll do that in the browser.", "Done: you signed in and I pressed the button."]);
    expect(agent.state).toMatchObject({ task: { id: taskId, status: "completed" } });
  });

  it("ends the run on an action that waits for approval, and a run that denies it lets the task go on without it", async () => {
    const task = "delete my account over AG-UI";
    model.route((r) => planningText(r).includes(`Task: ${task}`), act("click", { x: 180, y: 120 }, "Deleting the account"), act("done", { answer: "The account is kept, as you said." }, "Finished"));
    const agent = agentFor("s-agui-approval");
    agent.addMessage({ id: "a1", role: "user", content: task });
    const first = await run(agent, { forwardedProps: { mode: "task", agent_mode: "actions", start_url: pages.url("approvals.html") } });

    const finished = first.at(-1) as unknown as RunFinishedEvent;
    expect(finished.outcome).toMatchObject({ type: "interrupt", interrupts: [{ reason: "approval", message: 'Deleting the account: it presses "Delete account", which may delete.' }] });
    const [interrupt] = agent.pendingInterrupts as [Interrupt];
    // The approval card's content goes out too, as our own event.
    expect(first.find((e) => e.type === "CUSTOM" && e.name === "approval.requested")).toMatchObject({ value: { approval: { id: interrupt.id } } });

    const second = await run(agent, { resume: [{ interruptId: interrupt.id, status: "resolved", payload: { approved: false } }] });
    expect(story(second).at(-1)).toBe("RUN_FINISHED success");
    expect(second.find((e) => e.type === "CUSTOM" && e.name === "approval.resolved")).toMatchObject({ value: { approved: false } });
    expect(agent.messages.at(-1)).toMatchObject({ role: "assistant", content: "The account is kept, as you said." });
    expect(pages.records).not.toContain("deleted");
  });

  it("ends the run with RUN_ERROR when its task fails, and as cancelled when the person stops it", async () => {
    const failing = "read the form over AG-UI";
    model.route((r) => planningText(r).includes(`Task: ${failing}`), { status: 400, body: JSON.stringify({ error: { message: "this model does not take images" } }) });
    const agent = agentFor("s-agui-fails");
    agent.addMessage({ id: "f1", role: "user", content: failing });
    const failed = await run(agent, { forwardedProps: { mode: "task", agent_mode: "actions", start_url: pages.url("form.html") } });
    expect(failed.at(-1)).toMatchObject({ type: "RUN_ERROR", code: "MODEL_HTTP_ERROR" });
    expect(String(failed.at(-1)?.message)).toContain("this model does not take images");

    const stopping = "wait on the form over AG-UI";
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    model.route((r) => planningText(r).includes(`Task: ${stopping}`), { ...act("done", { answer: "too late" }), until: held });
    const stopped = agentFor("s-agui-stopped");
    stopped.addMessage({ id: "p1", role: "user", content: stopping });
    const events: BaseEvent[] = [];
    let stop: Promise<{ status: number }> | null = null;
    const running = stopped.runAgent(
      { forwardedProps: { mode: "task", agent_mode: "actions", start_url: pages.url("form.html") } },
      {
        onEvent: ({ event }) => {
          events.push(event);
          // The person presses Stop in the app once the task is known.
          const task = event.type === "STATE_SNAPSHOT" ? (event.snapshot as { task: { id: string } | null }).task : null;
          if (task && !stop) stop = app.api("POST", "/api/chat/stop", { task_id: task.id });
        },
      },
    );
    await running;
    release();
    expect((await stop!).status).toBe(202);
    expect(story(events).at(-1)).toBe("RUN_FINISHED cancelled");
    expect(stopped.state).toMatchObject({ task: { status: "stopped" } });
  });

  it("gives a task the images and documents of the person's message, as the chat's attachments, and refuses a part it cannot read", async () => {
    const task = "Send the attached notes through the form";
    const notes = Buffer.from("My notes, sent over AG-UI.");
    model.route(
      (r) => planningText(r).includes(`Task: ${task}`),
      act("upload", { name: "notes.txt", x: 250, y: 120 }, "Putting the notes into the form"),
      act("click", { x: 160, y: 320 }, "Sending the form"),
      act("done", { answer: "Attached." }, "Finished"),
    );
    const agent = agentFor("s-agui-files");
    agent.addMessage({
      id: "f1",
      role: "user",
      content: [
        { type: "text", text: task },
        { type: "document", source: { type: "data", value: notes.toString("base64"), mimeType: "text/plain" }, metadata: { filename: "notes.txt" } },
      ],
    });
    let events = await run(agent, { forwardedProps: { mode: "task", start_url: pages.url("upload.html") } });
    // The policy asks before a file goes to a page and before a form is sent: the person allows each.
    while (story(events).at(-1) === "RUN_FINISHED interrupt") {
      const [interrupt] = agent.pendingInterrupts as [Interrupt];
      expect(interrupt.reason).toBe("approval");
      events = await run(agent, { resume: [{ interruptId: interrupt.id, status: "resolved", payload: { approved: true } }] });
    }
    expect(story(events).at(-1)).toBe("RUN_FINISHED success");
    const received = pages.uploads.filter((u) => u.name === "notes.txt");
    expect(received).toHaveLength(1);
    expect(received[0]!.data.equals(notes)).toBe(true);

    const fetching = agentFor("s-agui-address");
    fetching.addMessage({ id: "f2", role: "user", content: [{ type: "text", text: "Look at this" }, { type: "image", source: { type: "url", value: "http://127.0.0.1:9/secret.png" } }] });
    await expect(fetching.runAgent()).rejects.toThrow("content[1] (image): the server fetches no address a message names");
    const hearing = agentFor("s-agui-audio");
    hearing.addMessage({ id: "f3", role: "user", content: [{ type: "audio", source: { type: "data", value: "AAAA", mimeType: "audio/wav" } }] });
    await expect(hearing.runAgent()).rejects.toThrow("content[0] (audio): only text, images and documents are read");
  });

  it("refuses a run without the install token, as every request that changes state, and says what a run input lacks", async () => {
    const stranger = new HttpAgent({ url: `${app.url}/api/agui`, threadId: "s-agui-token" });
    stranger.addMessage({ id: "x1", role: "user", content: "hello" });
    await expect(stranger.runAgent()).rejects.toThrow(/HTTP 403/);

    const agent = agentFor("s-agui-no-question");
    agent.addMessage({ id: "x2", role: "assistant", content: "How can I help?" });
    await expect(agent.runAgent()).rejects.toThrow("the last message must be the person's (role user): their question or task.");
    const answered = agentFor("s-agui-nothing-waits");
    await expect(answered.runAgent({ resume: [{ interruptId: "task_gone-ask-7", status: "resolved" }] })).rejects.toThrow("No task of session s-agui-nothing-waits waits on interrupt task_gone-ask-7");
  });
});
