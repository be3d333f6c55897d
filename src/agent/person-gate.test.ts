import { describe, expect, it } from "vitest";
import type { Budget } from "./budget.ts";
import { PersonGate } from "./person-gate.ts";
import type { TaskRecord } from "./task-record.ts";

/** A gate for a task in `status`, and who it tells the computer has the screen. */
function gateFor(status: string): { gate: PersonGate; told: string[] } {
  const current = { id: "task_1", status };
  const record = {
    current,
    update: async (change: { status?: string }) => void Object.assign(current, change),
    emit: async () => undefined,
    addMessage: async () => undefined,
  } as unknown as TaskRecord;
  const budget = { pauseClock: () => undefined, startClock: () => undefined } as unknown as Budget;
  const gate = new PersonGate(record, budget, new AbortController().signal);
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

  it("takes a request for the screen made just as the person handed it back, before the agent ran again", () => {
    const { gate } = gateFor("takeover");
    expect(gate.takeOver()).toBe(true);
    expect(gate.takeoverAsked).toBe(true);
  });

  it("lets a request to act answer a takeover asked for meanwhile: Resume is then the person's reply", async () => {
    const { gate, told } = gateFor("running");
    expect(gate.takeOver()).toBe(true);
    const asking = gate.askUser("Please sign in.");
    await Promise.resolve();
    expect(gate.takeoverAsked).toBe(false);
    // The overlay's Resume: no takeover to hand back, so it acknowledges the request.
    expect(gate.handBack()).toBe(false);
    expect(gate.acknowledge("I've done it")).toBe(true);
    expect(await asking).toBe("I've done it");
    expect(told).toEqual(["person", "agent"]);
  });

  it("says the agent still has it when the person asks for it while it is about to ask them", () => {
    const { gate, told } = gateFor("awaiting_user");
    expect(gate.takeOver()).toBe(false);
    expect(told).toEqual(["agent"]);
  });

  it("leaves the screen to nobody while an approval waits, a takeover refused meanwhile, and gives it back to the agent at the decision", async () => {
    const { gate, told } = gateFor("running");
    const approval = { id: "appr_1", checks: [{ id: "risk_1", code: "pay", message: "It presses Pay." }] } as unknown as Parameters<PersonGate["approve"]>[0];
    const deciding = gate.approve(approval, true);
    await expect.poll(() => told).toEqual(["nobody"]);
    expect(gate.takeOver()).toBe(false);
    expect(told).toEqual(["nobody", "nobody"]);
    expect(gate.decide("appr_1", true)).toBe(true);
    // Decided, the approval is not yet cleared from the task: a click now finds the agent's screen.
    expect(gate.takeOver()).toBe(false);
    expect(await deciding).toBe(true);
    expect(told).toEqual(["nobody", "nobody", "agent", "agent"]);
  });
});
