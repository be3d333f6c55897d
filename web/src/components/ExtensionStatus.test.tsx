// Under the prompt with "My Chrome" chosen: how to connect when nothing is, whose tab the task
// will use when one is, and a choice when several are.
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ExtensionListing } from "../protocol.ts";
import { ExtensionStatus } from "./ExtensionStatus.tsx";

afterEach(cleanup);

const chrome = (clientId: string, name: string): ExtensionListing => ({
  clientId,
  name,
  version: "0.1.0",
  userAgent: "Chrome",
  connectedAt: "2025-01-01T10:00:00.000Z",
  lastUsedAt: null,
  taskIds: [],
  tabs: 3,
});
const base = { chosen: null, onChoose: () => undefined, serverUrl: "http://127.0.0.1:8000", token: "tok-123" };

describe("the extension's status under the prompt", () => {
  it("with none connected, says how to connect one and shows the address and token to paste", () => {
    render(<ExtensionStatus {...base} extensions={[]} />);
    expect(screen.getByRole("status").textContent).toContain("No Chrome is connected");
    expect(screen.getByText(/Load unpacked/).textContent).toContain("extension/dist");
    expect(screen.getByText("http://127.0.0.1:8000")).toBeTruthy();
    expect(screen.getByText("tok-123")).toBeTruthy();
  });

  it("with one, names it", () => {
    render(<ExtensionStatus {...base} extensions={[chrome("client-aaaaaaaa", "Chrome on laptop")]} />);
    expect(screen.getByRole("status").textContent).toContain("Chrome on laptop");
  });

  it("with several, lets the person choose", () => {
    const onChoose = vi.fn();
    render(<ExtensionStatus {...base} onChoose={onChoose} extensions={[chrome("client-aaaaaaaa", "Work"), chrome("client-bbbbbbbb", "Home")]} />);
    fireEvent.change(screen.getByLabelText("Which Chrome"), { target: { value: "client-bbbbbbbb" } });
    expect(onChoose).toHaveBeenCalledWith("client-bbbbbbbb");
  });
});
