import { describe, expect, it } from "vitest";
import type { Budget } from "./budget.ts";
import { PersonGate } from "./person-gate.ts";
import type { TaskRecord } from "./task-record.ts";

/** A gate for a task in `status`, and who it tells the computer has the screen. */
function gateFor(status: string): { gate: PersonGate; told: string[] } {
  const record = { current: { status } } as unknown as TaskRecord;
  const gate = new PersonGate(record, {} as Budget, new AbortController().signal);
  const told: string[] = [];
  gate.handOver = async (to) => void told.push(to);
  return { gate, told };
}

describe("who has the screen, as the computer is told it", () => {
  it("turns it back to the agent when the person hands it back before the agent stopped for them", () => {
    const { gate, told } = gateFor("running");
    expect(gate.takeOver()).toBe(true);
    expect(gate.takeoverAsked).toBe(true);
    expect(gate.handBack()).toBe(true);
    expect(gate.takeoverAsked).toBe(false);
    expect(told).toEqual(["agent"]);
  });

  it("says the agent still has it when the person asks for it while a decision is awaited", () => {
    const { gate, told } = gateFor("awaiting_user");
    expect(gate.takeOver()).toBe(false);
    expect(told).toEqual(["agent"]);
  });
});
