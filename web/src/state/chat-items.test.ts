// The order of the chat: bubbles, earlier answers and the one card per task.
import { describe, expect, it } from "vitest";
import { message, task } from "../testing/fixtures.ts";
import { chatItems } from "./chat-items.ts";
import type { ReplyState, RunState } from "./session-state.ts";

const run = (status: RunState["task"]["status"]): Record<string, RunState> => ({
  task_1: { task: task({ status }), steps: [], liveUrl: null, liveWindow: null, stopReason: null },
});
const shape = (items: ReturnType<typeof chatItems>) =>
  items.map((i) => (i.kind === "run" ? `run:${i.taskId}` : i.kind === "reply" || i.kind === "failure" ? `${i.kind}:${i.reply.text}` : `${i.kind}:${i.message.text}`));
const reply = (patch: Partial<ReplyState>): ReplyState => ({ id: "msg_r", replyTo: "q", text: "", status: "streaming", message: null, error: null, endedAt: null, ...patch });

describe("chatItems", () => {
  const sent = [message("user_text", "log in for me"), message("assistant_progress", "")];

  it("puts the run card after the task's message", () => {
    expect(shape(chatItems(sent, run("running")))).toEqual(["user:log in for me", "run:task_1"]);
  });

  it("lets the card show the current answer instead of repeating it", () => {
    const waiting = [...sent, message("assistant_answer", "Please log in.")];
    expect(shape(chatItems(waiting, run("awaiting_user")))).toEqual(["user:log in for me", "run:task_1"]);
  });

  it("after I've done it, keeps the request and the reply, and the same card continues below", () => {
    const acked = [...sent, message("assistant_answer", "Please log in."), message("user_text", "I've done it")];
    expect(shape(chatItems(acked, run("running")))).toEqual(["user:log in for me", "answer:Please log in.", "user:I've done it", "run:task_1"]);
    const done = [...acked, message("assistant_answer", "Logged in.")];
    expect(shape(chatItems(done, run("completed")))).toEqual(["user:log in for me", "answer:Please log in.", "user:I've done it", "run:task_1"]);
  });

  it("shows a follow-up as a bubble the card continues below, and whether the agent has read it", () => {
    const followed = [...sent, message("user_text", "the blue one, please", "task_1", "f1")];
    const running = run("running");
    const items = chatItems(followed, running, [], { f1: null });
    expect(shape(items)).toEqual(["user:log in for me", "user:the blue one, please", "run:task_1"]);
    expect(items[0]).not.toHaveProperty("followUp");
    expect(items[1]).toMatchObject({ followUp: { readAt: null, open: true } });
    expect(chatItems(followed, running, [], { f1: 3 })[1]).toMatchObject({ followUp: { readAt: 3, open: true } });
    expect(chatItems(followed, run("completed"), [], { f1: null })[1]).toMatchObject({ followUp: { readAt: null, open: false } });
  });

  it("keeps a request that was stopped unanswered in view", () => {
    const stopped = [...sent, message("assistant_answer", "Please log in.")];
    expect(shape(chatItems(stopped, run("stopped")))).toEqual(["user:log in for me", "answer:Please log in.", "run:task_1"]);
  });

  it("orders several tasks as they were sent", () => {
    const second = [message("user_text", "again", "task_2"), message("assistant_progress", "", "task_2", "p2")];
    expect(shape(chatItems([...sent, ...second], run("completed")))).toEqual(["user:log in for me", "run:task_1", "user:again", "run:task_2"]);
  });

  it("shows the assistant's reply as it streams, then the stored one in its place", () => {
    const question = [message("user_text", "capital of France?", null, "q")];
    expect(shape(chatItems(question, {}, [reply({ text: "Paris" })]))).toEqual(["user:capital of France?", "reply:Paris"]);
    const answer = message("assistant_answer", "Paris.", null, "msg_r");
    const ended = [reply({ status: "completed", text: "Paris.", message: answer })];
    expect(shape(chatItems(question, {}, ended))).toEqual(["user:capital of France?", "answer:Paris."]);
    expect(shape(chatItems([...question, answer], {}, ended))).toEqual(["user:capital of France?", "answer:Paris."]);
  });

  it("keeps a failed reply before what the person wrote afterwards", () => {
    const later = { ...message("user_text", "try again", null, "q2"), created_at: "2025-01-01T10:05:00.000Z" };
    const failed = reply({ status: "failed", text: "Let me", endedAt: "2025-01-01T10:01:00.000Z" });
    const question = message("user_text", "capital?", null, "q");
    expect(shape(chatItems([question, later], {}, [failed]))).toEqual(["user:capital?", "failure:Let me", "user:try again"]);
    expect(shape(chatItems([question], {}, [failed]))).toEqual(["user:capital?", "failure:Let me"]);
  });
});
