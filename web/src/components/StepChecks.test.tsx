// A selected step shows what was checked: the effect of its action and how its pointer was
// verified, with the raw and annotated captures of each look the model took.
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { step } from "../testing/fixtures.ts";
import { StepChecks } from "./StepChecks.tsx";

afterEach(cleanup);

const frame = (id: string) => ({ id, url: `/api/frames/${id}`, width: 1000, height: 500 });

describe("StepChecks", () => {
  it("shows nothing for a step that checked nothing", () => {
    const { container } = render(<StepChecks step={step(1)} />);
    expect(container.innerHTML).toBe("");
  });

  it("says a dead click was retried and changed nothing", () => {
    render(<StepChecks step={step(1, { effect: { changed: false, ratio: 0, structural: false, retries: 3, note: "retried 3 times a few pixels off" } })} />);
    expect(screen.getByTestId("step-checks").textContent).toContain("✗ No visible change — retried 3 times a few pixels off");
  });

  it("says in plain words what showed an effect the screen need not show", () => {
    render(<StepChecks step={step(1, { effect: { changed: true, ratio: null, structural: true, retries: 0, note: null, seen: "download" } })} />);
    expect(screen.getByTestId("step-checks").textContent).toContain("✓ Started a download");
  });

  it("shows each look of the model with its annotated and raw capture", () => {
    render(
      <StepChecks
        step={step(1, {
          effect: { changed: true, ratio: null, structural: true, retries: 0, note: null },
          verification: {
            verified: true,
            model_calls: 1,
            elapsed_ms: 300,
            attempts: [
              { method: "hit_test", cursor_x: 1, cursor_y: 1, on_target: false, dx: null, dy: null, frame: null, annotated: null },
              { method: "model", cursor_x: 1, cursor_y: 1, on_target: false, dx: 40, dy: 20, frame: frame("raw1"), annotated: frame("ann1") },
              { method: "hit_test", cursor_x: 41, cursor_y: 21, on_target: true, dx: null, dy: null, frame: null, annotated: null },
            ],
          },
        })}
      />,
    );
    const text = screen.getByTestId("step-checks").textContent;
    expect(text).toContain("✓ The screen changed");
    expect(text).toContain("✓ Pointer checked by the model (1 look)");
    expect(text).toContain("1. off by (40, 20)");
    expect(screen.getByRole("img", { name: "Pointer check 1, annotated" }).getAttribute("src")).toBe("/api/frames/ann1");
    expect(screen.getByRole("link", { name: "raw" }).getAttribute("href")).toBe("/api/frames/raw1");
  });

  it("says when the pointer could not be placed and nothing was clicked", () => {
    render(
      <StepChecks
        step={step(1, {
          verification: {
            verified: false,
            model_calls: 0,
            elapsed_ms: 20,
            attempts: [{ method: "hit_test", cursor_x: 1, cursor_y: 1, on_target: false, dx: null, dy: null, frame: null, annotated: null }],
          },
        })}
      />,
    );
    expect(screen.getByTestId("step-checks").textContent).toContain("✗ Not clicked: the pointer could not be placed on the target");
  });
});
