// What the announcer tells screen readers of a task the person answered after a restart, which
// waits for its place before it goes on.
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { RunState } from "../state/session-state.ts";
import { liveFrame, task } from "../testing/fixtures.ts";
import { RunAnnouncer } from "./RunAnnouncer.tsx";

afterEach(cleanup);

const run = (patch: Parameters<typeof task>[0]): Record<string, RunState> => ({
  task_1: { task: task({ live_frame: liveFrame(1), ...patch }), steps: [], liveUrl: null, liveWindow: null, stopReason: null },
});

const polite = () => screen.getByTestId("announce-polite").textContent;

describe("RunAnnouncer", () => {
  it("says an answered task waits for its place, then that it resumed", () => {
    const view = render(<RunAnnouncer runs={run({ status: "awaiting_user", answer: "Please log in." })} loaded />);
    view.rerender(<RunAnnouncer runs={run({ status: "queued" })} loaded />);
    expect(polite()).toBe("Waiting for a running task to end…");
    view.rerender(<RunAnnouncer runs={run({ status: "running" })} loaded />);
    expect(polite()).toBe("The agent carries on.");
  });

  it("says nothing of a new task that waited for its place when it starts", () => {
    const view = render(<RunAnnouncer runs={run({ status: "queued", live_frame: null })} loaded />);
    view.rerender(<RunAnnouncer runs={run({ status: "running", live_frame: null })} loaded />);
    expect(polite()).toBe("");
  });
});
