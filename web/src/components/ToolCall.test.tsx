// A tool-agent step shows its call: the input, and the output — extracted data as formatted JSON,
// the ARIA tree as text — or the error the model got back.
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolCallRecord } from "../protocol.ts";
import { ToolCall } from "./ToolCall.tsx";

const call = (fields: Pick<ToolCallRecord, "name" | "input" | "ok" | "output" | "error">): ToolCallRecord => ({ label: null, targets: [], before_hash: null, replay: null, ...fields });

afterEach(cleanup);

describe("ToolCall", () => {
  it("shows extracted data as formatted JSON, open", () => {
    render(<ToolCall call={call({ name: "extract", input: { instruction: "the prices" }, ok: true, output: { success: true, result: { basic: 5, pro: 12 } }, error: null })} />);
    const extracted = screen.getByTestId("extracted");
    expect(extracted.textContent).toBe('{\n  "basic": 5,\n  "pro": 12\n}');
    expect(extracted.closest("details")?.open).toBe(true);
    expect(screen.getByTestId("tool-input").textContent).toContain('"instruction": "the prices"');
    expect(screen.getByTestId("tool-call").textContent).toContain("extract ✓ done");
  });

  it("shows the ARIA tree as the text it is", () => {
    render(<ToolCall call={call({ name: "ariaTree", input: {}, ok: true, output: { content: '- button "Save" [ref=e2]', pageUrl: "http://x/" }, error: null })} />);
    expect(screen.getByTestId("tool-output").textContent).toBe('- button "Save" [ref=e2]');
    expect(screen.queryByTestId("tool-input")).toBeNull();
  });

  it("shows a failed call's error", () => {
    render(<ToolCall call={call({ name: "act", input: { action: "click Save" }, ok: false, output: null, error: { code: "INVALID_TARGET", message: "No element could be chosen." } })} />);
    // The plain reason first; what the tool said stays in the details.
    expect(screen.getByTestId("tool-error").textContent).toBe("The element the agent wanted to use could not be found on the page.");
    expect(screen.getByTestId("error-details").textContent).toContain("INVALID_TARGET");
    expect(screen.getByTestId("error-details").textContent).toContain("No element could be chosen.");
    expect(screen.getByTestId("tool-call").textContent).toContain("act ✗ failed");
  });
});
