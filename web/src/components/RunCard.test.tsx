// The run card keeps timeline, scrubber and screen in sync both ways, and turns into the answer.
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RunState } from "../state/session-state.ts";
import { liveFrame, step, task } from "../testing/fixtures.ts";
import { RunCard, type RunCardProps } from "./RunCard.tsx";

afterEach(cleanup);

const running: RunState = {
  task: task({ live_frame: liveFrame(7), current_step_index: 3 }),
  steps: [step(1), step(2), step(3)],
  liveUrl: "http://127.0.0.1:9/live.html",
  liveWindow: null,
  stopReason: null,
  // The screen the first step acted on.
  first: { frame: liveFrame(1), url: "http://127.0.0.1:9/form.html" },
};

function renderCard(run: RunState, handlers: Partial<Omit<RunCardProps, "run">> = {}) {
  const onStop = handlers.onStop ?? vi.fn(async () => undefined);
  const onAck = handlers.onAck ?? vi.fn(async () => undefined);
  const onDecide = handlers.onDecide ?? vi.fn(async () => undefined);
  const onRunAgain = handlers.onRunAgain ?? vi.fn(async () => undefined);
  const onRetry = handlers.onRetry ?? vi.fn(async () => undefined);
  const onContinue = handlers.onContinue ?? vi.fn(async () => undefined);
  const onTakeOver = handlers.onTakeOver ?? vi.fn(async () => undefined);
  const onResume = handlers.onResume ?? vi.fn(async () => undefined);
  const onInput = handlers.onInput ?? vi.fn(async () => undefined);
  const all = { onStop, onAck, onDecide, onRunAgain, onRetry, onContinue, onTakeOver, onResume, onInput };
  const view = render(<RunCard run={run} {...all} />);
  return { ...view, ...all, all };
}

const slider = () => screen.getByRole("slider", { name: "Steps and live screen" });
const shownImage = () => screen.getByRole("figure", { name: "Screen" }).querySelector("img")?.getAttribute("src");
const timelineItems = () => within(screen.getByRole("list", { name: "Progress" })).getAllByRole("button");

describe("RunCard while running", () => {
  it("says a task that waits again for its place (answered after a restart) is waiting, and can be stopped", () => {
    const { onStop } = renderCard({ ...running, task: task({ status: "queued", live_frame: liveFrame(7) }) });
    expect(screen.getByTestId("run-header").textContent).toContain("Waiting");
    expect(screen.getByTestId("latest-progress").textContent).toBe("for a running task to end…");
    fireEvent.click(screen.getByRole("button", { name: "Stop the task" }));
    expect(onStop).toHaveBeenCalledWith("task_1");
  });

  it("says what the agent does between steps: instead of Starting… before the first, beside the status after", () => {
    const since = new Date(Date.now() - 7_000).toISOString();
    const { rerender, all } = renderCard({ ...running, steps: [], task: task({ current_step_index: 0 }), activity: { activity: "model_retry", attempt: 2, of: 3, since } });
    expect(screen.getByTestId("latest-progress").textContent).toBe("Waiting for the model (retry 2 of 3)…\u00a07\u00a0s");
    rerender(<RunCard run={{ ...running, activity: { activity: "thinking", since } }} {...all} />);
    expect(screen.getByTestId("latest-progress").textContent).toBe("Step 3 text");
    expect(screen.getByTestId("run-activity").textContent).toBe("Thinking…\u00a07\u00a0s");
    rerender(<RunCard run={{ ...running, activity: null }} {...all} />);
    expect(screen.queryByTestId("run-activity")).toBeNull();
  });

  it("starts collapsed on the live screen, showing only the latest progress", () => {
    renderCard(running);
    expect(screen.getByTestId("latest-progress").textContent).toBe("Step 3 text");
    expect(screen.queryByRole("list", { name: "Progress" })).toBeNull();
    expect(slider().getAttribute("aria-valuenow")).toBe("3");
    expect(slider().getAttribute("aria-valuetext")).toBe("Live · step 3");
    expect(shownImage()).toBe("/api/frames/live_task_1?v=7");
    // Seed 003 §4: the live screen carries the step counter and the last action.
    expect(screen.getByTestId("screen-position").textContent).toBe("Live · step 3");
    expect(screen.getByTestId("action-label").textContent).not.toBe("");
    expect(screen.getByTestId("screen-url").textContent).toBe("http://127.0.0.1:9/live.html");
  });

  it("clicking a timeline item shows the screen its action was done on, marked, and moves the scrubber there", () => {
    renderCard(running);
    fireEvent.click(screen.getByRole("button", { name: /Show all progress/ }));
    fireEvent.click(timelineItems()[0]!);
    expect(timelineItems()[0]!.getAttribute("aria-current")).toBe("step");
    expect(slider().getAttribute("aria-valuenow")).toBe("0");
    expect(slider().getAttribute("aria-valuetext")).toBe("Step 1 of 3: Step 1 text");
    expect(shownImage()).toBe("/api/frames/live_task_1?v=1");
    expect(screen.getByTestId("screen-position").textContent).toBe("Step 1 of 3");
    const marker = screen.getByTestId("action-marker");
    expect(marker.style.left).toBe("10%");
    expect(marker.style.top).toBe("10%");
    // The step's own screenshot, taken after its action, is one click away.
    fireEvent.click(screen.getByRole("button", { name: "After" }));
    expect(shownImage()).toBe("/api/frames/frame_1");
    expect(screen.queryByTestId("action-marker")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Before" }));
    expect(shownImage()).toBe("/api/frames/live_task_1?v=1");
  });

  it("moving the scrubber with the keys highlights the matching timeline item, and End goes live", () => {
    renderCard(running);
    fireEvent.click(screen.getByRole("button", { name: /Show all progress/ }));
    fireEvent.keyDown(slider(), { key: "Home" });
    fireEvent.keyDown(slider(), { key: "ArrowRight" });
    expect(timelineItems().map((item) => item.getAttribute("aria-current"))).toEqual([null, "step", null]);
    expect(shownImage()).toBe("/api/frames/frame_1");
    fireEvent.keyDown(slider(), { key: "End" });
    expect(timelineItems().every((item) => item.getAttribute("aria-current") === null)).toBe(true);
    expect(shownImage()).toBe("/api/frames/live_task_1?v=7");
    expect(screen.queryByTestId("action-marker")).toBeNull();
  });

  it("stays on the chosen step while new steps arrive, and stays live when live", () => {
    const { rerender, all } = renderCard(running);
    fireEvent.keyDown(slider(), { key: "ArrowLeft" });
    const more = { ...running, steps: [...running.steps, step(4)] };
    rerender(<RunCard run={more} {...all} />);
    expect(slider().getAttribute("aria-valuenow")).toBe("2");
    expect(slider().getAttribute("aria-valuemax")).toBe("4");
    fireEvent.keyDown(slider(), { key: "End" });
    rerender(<RunCard run={{ ...more, steps: [...more.steps, step(5)] }} {...all} />);
    expect(slider().getAttribute("aria-valuenow")).toBe("5");
    expect(slider().getAttribute("aria-valuetext")).toBe("Live · step 5");
  });

  it("has a Stop button that stops this task", () => {
    const { onStop } = renderCard(running);
    fireEvent.click(screen.getByRole("button", { name: "Stop the task" }));
    expect(onStop).toHaveBeenCalledWith("task_1");
  });
});

describe("RunCard with an answer", () => {
  it("shows only the answer text once completed, with the steps still open to replay", () => {
    renderCard({ ...running, task: { ...running.task, status: "completed", answer: "**Done.** <img src=x onerror=alert(1)>" } });
    const answer = screen.getByTestId("answer");
    expect(answer.querySelector("strong")?.textContent).toBe("Done.");
    expect(answer.querySelector("img")).toBeNull();
    expect(screen.queryByRole("slider")).toBeNull();
    expect(screen.queryByRole("figure")).toBeNull();
    expect(screen.queryByRole("button", { name: "Stop the task" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Show 3 steps" }));
    expect(slider().getAttribute("aria-valuetext")).toBe("End");
    fireEvent.click(timelineItems()[2]!);
    expect(shownImage()).toBe("/api/frames/frame_2");
  });

  it("asks for the person's action and sends the button's words", () => {
    const { onAck } = renderCard({ ...running, task: { ...running.task, status: "awaiting_user", answer: "Please log in." } });
    expect(screen.getByTestId("answer").textContent).toContain("Please log in.");
    fireEvent.click(screen.getByRole("button", { name: "I've done it" }));
    expect(onAck).toHaveBeenCalledWith("task_1", "I've done it");
    expect(screen.getByRole("button", { name: "I've done it" }).hasAttribute("disabled")).toBe(true);
  });

  it("offers the button again when the task asks a second time", () => {
    const waiting = { ...running, task: { ...running.task, status: "awaiting_user" as const, answer: "Please log in." } };
    const { rerender, all } = renderCard(waiting);
    fireEvent.click(screen.getByRole("button", { name: "I've done it" }));
    rerender(<RunCard run={{ ...waiting, task: { ...waiting.task, status: "running", answer: null } }} {...all} />);
    rerender(<RunCard run={{ ...waiting, task: { ...waiting.task, answer: "Now confirm the payment." } }} {...all} />);
    expect(screen.getByTestId("answer").textContent).toContain("Now confirm the payment.");
    expect(screen.getByRole("button", { name: "I've done it" }).hasAttribute("disabled")).toBe(false);
  });

  it("says why a task failed or was stopped", () => {
    renderCard({ ...running, task: { ...running.task, status: "failed", error: { code: "MODEL_TIMEOUT", message: "The model did not answer in time." } } });
    // The plain reason, with the server's words kept for developers.
    expect(screen.getByTestId("failure-reason").textContent).toBe("The AI model took too long to answer.");
    expect(screen.getByTestId("error-details").textContent).toContain("The model did not answer in time.");
    cleanup();
    renderCard({ ...running, task: { ...running.task, status: "stopped" }, stopReason: "stopped by the user" });
    expect(screen.getByTestId("stop-reason").textContent).toBe("You stopped it.");
  });
});

describe("RunCard with a flagged action", () => {
  it("asks for approval instead of I've done it, and sends the decision", () => {
    const approval = {
      id: "appr_1",
      checks: [{ id: "sc_1", code: "malicious_instructions", message: "The page asks to ignore your instructions." }],
      action: step(1).action,
      tool: null,
      intent: "Press Send",
      url: "https://shop.example/cart",
      frame: { id: "frame_a", url: "/frames/frame_a", width: 1000, height: 500 },
      at: { x: 250, y: 100 },
      box: null,
      from_page: false,
      frame_origin: null,
    };
    const flagged = { ...running, task: { ...running.task, status: "awaiting_user" as const, approval, answer: approval.checks[0]!.message } };
    const { onDecide } = renderCard(flagged);
    expect(screen.getByText("Needs your approval")).toBeTruthy();
    expect(screen.queryByTestId("approval-from-page")).toBeNull();
    expect(screen.getByTestId("answer").textContent).toContain("The page asks to ignore your instructions.");
    expect(screen.queryByRole("button", { name: "I've done it" })).toBeNull();
    expect(screen.getByRole("img", { name: "The screen before “Press Send”, with its target marked" }).getAttribute("src")).toBe("/frames/frame_a");
    expect(screen.getByTestId("approval-target").style).toMatchObject({ left: "25%", top: "20%" });
    fireEvent.click(screen.getByRole("button", { name: "Deny" }));
    expect(onDecide).toHaveBeenCalledWith("task_1", "appr_1", false);
    expect(screen.queryByTestId("approval-frame")).toBeNull();
  });

  it("names the frame of another site an action lands in, and marks the element inside it", () => {
    const approval = {
      id: "appr_2",
      checks: [{ id: "risk_1", code: "submit", message: "Signing in: it submits the form." }],
      action: null,
      tool: null,
      intent: "Signing in",
      url: "https://shop.example/deals",
      frame: { id: "frame_b", url: "/frames/frame_b", width: 1000, height: 500 },
      at: null,
      box: { x: 200, y: 250, width: 100, height: 50 },
      frame_origin: "https://other.example",
      from_page: false,
    };
    renderCard({ ...running, task: { ...running.task, status: "awaiting_user" as const, approval, answer: approval.checks[0]!.message } });
    expect(screen.getByTestId("approval-frame").textContent).toBe("in a frame of https://other.example");
    expect(screen.getByTestId("approval-target").style).toMatchObject({ left: "20%", top: "50%", width: "10%", height: "10%" });
  });
});

describe("RunCard with an action that follows the page", () => {
  it("says the instruction came from the page, above the screen it asks about", () => {
    const approval = {
      id: "appr_2",
      checks: [{ id: "risk_1", code: "leave_site", message: "Opening the prize: it leaves https://shop.example for https://evil.example." }],
      action: null,
      tool: null,
      intent: "Opening the prize",
      url: "https://shop.example/deals",
      frame: { id: "frame_b", url: "/frames/frame_b", width: 1000, height: 500 },
      at: null,
      box: null,
      from_page: true,
      frame_origin: null,
    };
    renderCard({ ...running, task: { ...running.task, status: "awaiting_user" as const, approval, answer: approval.checks[0]!.message } });
    expect(screen.getByTestId("approval-from-page").textContent).toMatch(/^This instruction came from the page, not from you/);
    expect(screen.getByRole("button", { name: "Allow" })).toBeTruthy();
  });
});

describe("RunCard asking about an upload", () => {
  it("says which of the person's files would go to which origin", () => {
    const approval = {
      id: "appr_3",
      checks: [{ id: "risk_1", code: "upload", message: 'Attaching the CV: it puts the file "cv.pdf" into the file input on https://jobs.example, which receives it.' }],
      action: { type: "upload" as const, args: { name: "cv.pdf", x: 200, y: 120 }, intent: "Attaching the CV", requires_verification: false },
      tool: null,
      intent: "Attaching the CV",
      url: "https://jobs.example/apply?step=2",
      frame: { id: "frame_c", url: "/frames/frame_c", width: 1000, height: 500 },
      at: { x: 200, y: 120 },
      box: null,
      from_page: false,
      frame_origin: null,
    };
    renderCard({ ...running, task: { ...running.task, status: "awaiting_user" as const, approval, answer: approval.checks[0]!.message } });
    expect(screen.getByTestId("approval-upload").textContent).toBe("Your file “cv.pdf” would be given to https://jobs.example.");
  });
});

describe("RunCard's timeline from the keyboard", () => {
  it("is one tab stop; the arrows, Home and End move through the steps and select them", () => {
    renderCard(running);
    fireEvent.click(screen.getByRole("button", { name: /Show all progress/ }));
    // On the live screen the latest step takes Tab.
    expect(timelineItems().map((item) => item.tabIndex)).toEqual([-1, -1, 0]);
    const list = screen.getByRole("list", { name: "Progress" });
    fireEvent.keyDown(list, { key: "ArrowUp" });
    expect(timelineItems()[1]!.getAttribute("aria-current")).toBe("step");
    expect(document.activeElement).toBe(timelineItems()[1]);
    expect(timelineItems().map((item) => item.tabIndex)).toEqual([-1, 0, -1]);
    fireEvent.keyDown(list, { key: "Home" });
    expect(slider().getAttribute("aria-valuenow")).toBe("0");
    fireEvent.keyDown(list, { key: "End" });
    expect(document.activeElement).toBe(timelineItems()[2]);
  });
});

describe("RunCard ending while the person is in its player", () => {
  it("keeps the timeline and screen in place, the answer under them", () => {
    const { rerender, all } = renderCard(running);
    fireEvent.click(screen.getByRole("button", { name: /Show all progress/ }));
    fireEvent.click(timelineItems()[0]!);
    rerender(<RunCard run={{ ...running, task: { ...running.task, status: "completed", answer: "All done." } }} {...all} />);
    expect(timelineItems()[0]!.getAttribute("aria-current")).toBe("step");
    expect(shownImage()).toBe("/api/frames/live_task_1?v=1");
    expect(screen.getByTestId("answer").textContent).toContain("All done.");
  });

  it("turns into the answer when nobody was looking at the steps", () => {
    const { rerender, all } = renderCard(running);
    rerender(<RunCard run={{ ...running, task: { ...running.task, status: "completed", answer: "All done." } }} {...all} />);
    expect(screen.queryByRole("slider")).toBeNull();
    expect(screen.getByTestId("answer").textContent).toContain("All done.");
  });
});

describe("RunCard's costs", () => {
  it("puts a step's tokens and time in its details, not a line on the card", () => {
    const steps = [step(1, { planner: "anthropic:claude-x", usage: { input_tokens: 12_345, output_tokens: 678 }, timings: { total: 2_400 } }), step(2, { usage: { input_tokens: 0, output_tokens: 0 } })];
    renderCard({ ...running, task: { ...running.task, usage: { input_tokens: 12_345, output_tokens: 678 } }, steps });
    expect(screen.queryByText(/tokens/)).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: /Show all progress/ }));
    fireEvent.click(timelineItems()[0]!);
    expect(screen.getByTestId("step-cost").textContent?.replace(/\s+/g, " ")).toContain("anthropic:claude-x · 12k tokens in, 678 out · 2.4 s");
    // A step that cost nothing says nothing: never "0 tokens".
    fireEvent.click(timelineItems()[1]!);
    expect(screen.queryByTestId("step-cost")).toBeNull();
  });

  it("shows a step's money beside its tokens, the task's total beside its status, and nothing for a model without a price", () => {
    const steps = [step(1, { planner: "anthropic:claude-sonnet-5", usage: { input_tokens: 2_400, output_tokens: 720 }, cost_usd: 0.012, timings: { total: 2_400 } }), step(2, { planner: "qwen:local", usage: { input_tokens: 500, output_tokens: 20 }, cost_usd: null })];
    renderCard({ ...running, task: { ...running.task, cost_usd: 0.0123 }, steps: steps.slice(0, 1) });
    expect(screen.getByTestId("task-cost").textContent).toContain("$0.012");
    fireEvent.click(screen.getByRole("button", { name: /Show all progress/ }));
    fireEvent.click(timelineItems()[0]!);
    expect(screen.getByTestId("step-cost").textContent?.replace(/\s+/g, " ")).toContain("anthropic:claude-sonnet-5 · 2.4k tokens in, 720 out · $0.012 · 2.4 s");
    cleanup();
    renderCard({ ...running, task: { ...running.task, cost_usd: null }, steps });
    expect(screen.queryByTestId("task-cost")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: /Show all progress/ }));
    fireEvent.click(timelineItems()[1]!);
    const unpriced = screen.getByTestId("step-cost").textContent ?? "";
    expect(unpriced).toContain("500");
    expect(unpriced).not.toContain("$");
  });
});

describe("RunCard of a task that ended without its answer", () => {
  it("offers Continue and Retry on a step-limit failure, and sends each", async () => {
    const failed = { ...running, task: { ...running.task, status: "failed" as const, error: { code: "STEP_LIMIT", message: "The task reached its limit of 2 steps." } } };
    const { onContinue, onRetry } = renderCard(failed);
    fireEvent.click(screen.getByRole("button", { name: "Continue" }));
    expect(onContinue).toHaveBeenCalledWith("task_1");
    await waitFor(() => expect(screen.getByRole<HTMLButtonElement>("button", { name: "Retry" }).disabled).toBe(false));
    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    expect(onRetry).toHaveBeenCalledWith("task_1");
  });

  it("shows why Continue was refused, and offers neither on a completed card", async () => {
    const stopped = { ...running, task: { ...running.task, status: "stopped" as const } };
    const refused = Object.assign(new Error("busy"), { code: "SESSION_BUSY" });
    renderCard(stopped, { onContinue: vi.fn(async () => Promise.reject(refused)) });
    fireEvent.click(screen.getByRole("button", { name: "Continue" }));
    expect((await screen.findByRole("alert")).textContent).not.toBe("");
    expect(screen.getByRole<HTMLButtonElement>("button", { name: "Continue" }).disabled).toBe(false);
    cleanup();
    renderCard({ ...running, task: { ...running.task, status: "completed", answer: "Done." } });
    expect(screen.queryByRole("button", { name: "Continue" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Retry" })).toBeNull();
  });
});

describe("Run again on a RunCard", () => {
  it("offers Run again once a tool-agent task has completed, and sends it", () => {
    const done = { ...running, task: { ...running.task, mode: "dom" as const, status: "completed" as const, answer: "Signed up." } };
    const { onRunAgain } = renderCard(done);
    fireEvent.click(screen.getByRole("button", { name: "Run again" }));
    expect(onRunAgain).toHaveBeenCalledWith("task_1");
  });

  it("offers it for a planner's completed task too, and not before it has completed", () => {
    const { onRunAgain } = renderCard({ ...running, task: { ...running.task, status: "completed", answer: "Done." } });
    fireEvent.click(screen.getByRole("button", { name: "Run again" }));
    expect(onRunAgain).toHaveBeenCalledWith("task_1");
    cleanup();
    renderCard(running);
    expect(screen.queryByRole("button", { name: "Run again" })).toBeNull();
  });
});

describe("RunCard's takeover (seed 004 §2)", () => {
  /** The screen as laid out: 640×400 at the page's origin (the live frame is 1000×500). */
  const laidOut = (element: HTMLElement) => {
    element.getBoundingClientRect = () => ({ left: 0, top: 0, width: 640, height: 400, right: 640, bottom: 400, x: 0, y: 0, toJSON: () => ({}) });
    return element;
  };

  it("offers Take over on a running task's screen and says it waits for the step", () => {
    const { onTakeOver } = renderCard(running);
    fireEvent.click(screen.getByRole("button", { name: "Take over" }));
    expect(onTakeOver).toHaveBeenCalledWith("task_1");
    expect(screen.getByRole("button", { name: "Taking over after this step…" }).hasAttribute("disabled")).toBe(true);
    expect(screen.queryByRole("application")).toBeNull();
  });

  it("gives the person the live screen once taken over: clicks and keys go to the computer, Resume hands it back", async () => {
    const taken = { ...running, task: { ...running.task, status: "takeover" as const } };
    const { onInput, onResume } = renderCard(taken);
    expect(screen.getByTestId("latest-progress").closest("div")!.textContent).toContain("You have the screen");
    const surface = laidOut(screen.getByRole("application", { name: "The screen: your clicks and keys go to it" }));
    fireEvent.click(surface, { clientX: 320, clientY: 100, detail: 1 });
    fireEvent.keyDown(surface, { key: "h" });
    fireEvent.keyDown(surface, { key: "i" });
    fireEvent.keyDown(surface, { key: "Enter" });
    // Keys pressed while the click is on its way go after it, the characters as one text.
    await vi.waitFor(() => expect(onInput).toHaveBeenCalledTimes(3));
    expect(vi.mocked(onInput).mock.calls.map(([, input]) => input)).toEqual([
      { kind: "click", x: 500, y: 125, double: false },
      { kind: "type", text: "hi" },
      { kind: "key", keys: ["Enter"] },
    ]);
    fireEvent.click(screen.getByRole("button", { name: "Resume" }));
    expect(onResume).toHaveBeenCalledWith("task_1");
  });

  it("opens the live screen for the person to act on when the task waits for them", () => {
    const { onInput } = renderCard({ ...running, task: { ...running.task, status: "awaiting_user", answer: "Please sign in." } });
    const surface = laidOut(screen.getByRole("application"));
    fireEvent.contextMenu(surface, { clientX: 64, clientY: 40 });
    expect(onInput).toHaveBeenCalledWith("task_1", { kind: "click", x: 100, y: 50, button: "right" });
    expect(screen.getByText(/Do it right here on the screen/)).toBeTruthy();
  });
});
