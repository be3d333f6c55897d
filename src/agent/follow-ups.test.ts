import type { Logger } from "pino";
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../protocol/index.ts";
import { FollowUps } from "./follow-ups.ts";
import { TaskRecord } from "./task-record.ts";
import type { RunRecorder } from "./ports.ts";

const recorder = { emit: async () => undefined, addMessage: async () => undefined, saveTask: async () => undefined } as unknown as RunRecorder;
const log = { warn: () => undefined } as unknown as Logger;

describe("follow-ups of a run that goes on from an earlier one", () => {
  it("tells each once: those read before first, and one sent while the resumed task waited for its place when it is read", async () => {
    const record = new TaskRecord({ id: "task_1", session_id: "s" } as never, recorder);
    const followUps = new FollowUps(record, log);
    await followUps.add("use the blue one", "msg_2");
    const stored = (id: string, text: string) => ({ id, text }) as ChatMessage;
    // The store has both: the one of the run before the restart, and the one sent since.
    followUps.recall([stored("msg_1", "it is on page 2"), stored("msg_2", "use the blue one")]);
    expect(followUps.told).toEqual(["it is on page 2"]);
    expect(followUps.take(3)).toEqual(["use the blue one"]);
    expect(followUps.told).toEqual(["it is on page 2", "use the blue one"]);
  });
});
