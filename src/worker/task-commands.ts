// The person's commands to tasks that workers run (stop, take over, hand back, their input, a
// follow-up, a decision, "I've done it"), carried between processes by Postgres NOTIFY: a `serve`
// says a command on one channel, every worker hears it, the one that holds the task carries it out
// and says its reply on another. What the task does then reaches every `serve` as its events do.
import type { CommandReply, TaskCommand } from "../agent/ports.ts";
import { AppError } from "../core/errors.ts";
import { newId } from "../core/ids.ts";

const COMMANDS = "easyagentcu_commands";
const REPLIES = "easyagentcu_replies";
/** How long a command waits for the worker that holds its task before it counts as held by none. */
const REPLY_MS = 5_000;
/** The most a Postgres notice carries (8,000 bytes), less room to spare. */
const NOTICE_MAX_BYTES = 7_900;

/** Talking to the other processes on the same Postgres (the Store does it). */
export interface Channels {
  say(channel: string, payload: string): Promise<void>;
  hear(channel: string, heard: (payload: string | null) => void): Promise<void>;
}

interface Said {
  id: string;
  taskId: string;
  command: TaskCommand;
}

interface Replied {
  id: string;
  reply: unknown;
}

/** A `serve`'s side: says commands and waits for their replies. */
export class CommandSender {
  private readonly waiting = new Map<string, (reply: unknown) => void>();

  private constructor(private readonly channels: Channels) {}

  static async open(channels: Channels): Promise<CommandSender> {
    const sender = new CommandSender(channels);
    await channels.hear(REPLIES, (payload) => {
      if (!payload) return;
      const { id, reply } = JSON.parse(payload) as Replied;
      sender.waiting.get(id)?.(reply);
    });
    return sender;
  }

  /** The reply of the worker that holds the task; null when none answers in time. */
  async send<C extends TaskCommand>(taskId: string, command: C): Promise<CommandReply<C> | null> {
    const id = newId("cmd");
    const said = JSON.stringify({ id, taskId, command } satisfies Said);
    if (Buffer.byteLength(said) > NOTICE_MAX_BYTES) {
      throw new AppError("INVALID_BODY", `This is too long to reach a task a worker runs: Postgres carries at most ${NOTICE_MAX_BYTES.toLocaleString("en")} bytes at a time. Send it in shorter parts.`);
    }
    const replied = new Promise<CommandReply<C> | null>((resolve) => {
      const timer = setTimeout(() => done(null), REPLY_MS);
      const done = (reply: unknown) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve(reply as CommandReply<C> | null);
      };
      this.waiting.set(id, done);
    });
    await this.channels.say(COMMANDS, said);
    return replied;
  }
}

/**
 * A worker's side: hears every command and carries out those for tasks it holds (`holds`), saying
 * what `carryOut` answered.
 */
export async function carryOutCommands(channels: Channels, holds: (taskId: string) => boolean, carryOut: (taskId: string, command: TaskCommand) => Promise<unknown>, failed: (error: unknown) => void): Promise<void> {
  await channels.hear(COMMANDS, (payload) => {
    if (!payload) return;
    const { id, taskId, command } = JSON.parse(payload) as Said;
    if (!holds(taskId)) return;
    void carryOut(taskId, command)
      .then((reply) => channels.say(REPLIES, JSON.stringify({ id, reply } satisfies Replied)))
      .catch(failed);
  });
}
