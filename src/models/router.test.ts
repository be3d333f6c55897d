// The router forwards its active planner's capabilities, and a fallback that wants its input
// prepared otherwise (elements, image size) asks the caller to observe again. The planners are
// small fakes: what is under test is the router, not a wire protocol.
import { describe, expect, it } from "vitest";
import { AppError } from "../core/errors.ts";
import type { Size } from "../perception/coordinates.ts";
import { Replan, type Planner, type PlannerCapabilities, type PlannerInput, type PlannerTurn } from "./planner.ts";
import { Router } from "./router.ts";

const screen: Size = { width: 2560, height: 1600 };
const signal = new AbortController().signal;
const lookAtPointer: NonNullable<PlannerCapabilities["checkPointer"]> = async () => ({ on_target: true, dx: 0, dy: 0, usage: { input_tokens: 1, output_tokens: 1 } });

const cannotLook: PlannerCapabilities = { elements: false, imageSize: null, verifyClicks: null, checkPointer: null };
const canLook: PlannerCapabilities = { ...cannotLook, verifyClicks: "always", checkPointer: lookAtPointer };
const marks: PlannerCapabilities = { ...cannotLook, elements: true };
const display: PlannerCapabilities = { ...cannotLook, imageSize: { width: 1280, height: 800 } };

/** A planner that answers with its capabilities and, each step, the next reply of its script. */
class FakePlanner implements Planner {
  readonly asked: PlannerInput[] = [];

  constructor(
    readonly name: string,
    private readonly can: PlannerCapabilities,
    private readonly script: (PlannerTurn | Error)[] = [],
  ) {}

  capabilities(): PlannerCapabilities {
    return this.can;
  }

  async next(input: PlannerInput): Promise<PlannerTurn> {
    this.asked.push(input);
    const reply = this.script.shift() ?? new Error(`${this.name} has nothing more to say`);
    if (reply instanceof Error) throw reply;
    return reply;
  }
}

const turn = (planner: string): PlannerTurn => ({
  thought: "",
  progress: "Done",
  action: { type: "done", args: { answer: "ok" }, intent: "", requires_verification: false },
  usage: { input_tokens: 0, output_tokens: 0 },
  planner,
});
const input = (step: number): PlannerInput => ({
  task: "press the button",
  attachments: [],
  step,
  history: [],
  screenshot: { data: Buffer.alloc(0), mimeType: "image/jpeg", ...screen },
  url: null,
});
const timeout = () => new AppError("MODEL_TIMEOUT", "the model did not answer in time", { retryable: true });

describe("the router's capabilities", () => {
  it("are those of a Set-of-Mark planner behind it: the step comes with elements", () => {
    const router = new Router([new FakePlanner("som", marks), new FakePlanner("qwen", canLook)]);
    expect(router.capabilities(screen).elements).toBe(true);
  });

  it("say the router cannot look at the pointer when its active planner cannot", () => {
    const router = new Router([new FakePlanner("anthropic", display), new FakePlanner("qwen", canLook)]);
    expect(router.capabilities(screen).checkPointer).toBeNull();
  });

  it("are those of the planner that took over after a fallback, which gets the same input when it wants the same", async () => {
    const primary = new FakePlanner("qwen", canLook, [timeout()]);
    const fallback = new FakePlanner("opencua", cannotLook, [turn("opencua")]);
    const router = new Router([primary, fallback]);
    expect(router.capabilities(screen)).toEqual(canLook);

    const step = input(1);
    expect(await router.next(step, signal)).toMatchObject({ planner: "opencua" });
    expect(fallback.asked).toEqual([step]);
    expect(router.capabilities(screen)).toEqual(cannotLook);
  });
});

describe("a fallback to a planner that wants other input", () => {
  it.each([
    ["elements", marks],
    ["another image size", display],
  ])("(%s) throws Replan, and the step asked again goes to the new planner", async (_, wants) => {
    const primary = new FakePlanner("qwen", canLook, [timeout()]);
    const fallback = new FakePlanner("other", wants, [turn("other")]);
    const router = new Router([primary, fallback]);
    router.capabilities(screen);

    const replan = await router.next(input(1), signal).catch((error: unknown) => error);
    expect(replan).toBeInstanceOf(Replan);
    expect(replan).toMatchObject({ to: "other" });
    expect(fallback.asked).toEqual([]);

    expect(router.capabilities(screen)).toEqual(wants);
    expect(await router.next(input(1), signal)).toMatchObject({ planner: "other" });
    expect(primary.asked).toHaveLength(1);
  });
});
