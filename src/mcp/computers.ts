// The computers one MCP session has open: each is a task (in a chat of its own, so the app shows it
// live, step by step) driven by the client's calls (agent/drivers/client.ts). They close when the
// client closes them, or when its MCP session ends. A call the approval policy asks about is not
// run silently: the person is asked at the client when it can show a form; else the client is
// answered that it needs approval, and the call stays pending until answer_person (or the person
// in the app) decides.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ClientDriver, type CallResult } from "../agent/drivers/client.ts";
import type { Runtime } from "../agent/runtime.ts";
import { AppError } from "../core/errors.ts";
import { newId } from "../core/ids.ts";
import type { Approval, Task } from "../protocol/index.ts";
import type { Store } from "../store/store.ts";
import type { AgentTool } from "../tools/index.ts";
import { approvalAsked, watchTask } from "./follow.ts";
import { answer, type AskOptions, type AskPerson } from "./person.ts";
import { json, type Content } from "./results.ts";

interface OpenComputer {
  task: Task;
  driver: ClientDriver;
  done: Promise<Task>;
  /** The call that waits for a decision, answered once it is made. */
  pending: Promise<CallResult> | null;
}

interface OpenOptions {
  startUrl?: string | undefined;
  maxSteps?: number | undefined;
}

/** The end a computer's task came to, for a call made after it. */
function ended(task: Task): AppError {
  return new AppError("TASK_FINISHED", `Computer ${task.id} has closed (${task.status}${task.error ? `: ${task.error.message}` : ""}); open another with open_computer.`);
}

export class ClientComputers {
  private readonly open = new Map<string, OpenComputer>();

  constructor(
    private readonly store: Store,
    private readonly runtime: Runtime,
    private readonly ask: AskPerson,
  ) {}

  /** Opens a browser for the client and resolves once it takes calls, with its task. */
  async start({ startUrl, maxSteps }: OpenOptions): Promise<Task> {
    const sessionId = newId("mcp");
    const text = `A computer driven by an MCP client${startUrl ? `, from ${startUrl}` : ""}`;
    await this.store.ensureSession(sessionId, "MCP computer");
    let driver: ClientDriver | null = null;
    const { task, done } = await this.runtime.submit({
      sessionId,
      text,
      attachments: [],
      startUrl,
      // Each call is a step: up to MAX_STEPS (the runtime's cap on every task), not the tool
      // agent's AGENT_MAX_STEPS, which is for a model of ours.
      maxSteps: maxSteps ?? Infinity,
      computer: "browser",
      agentMode: "dom",
      driver: (model) => (driver = new ClientDriver(model)),
    });
    const opened: OpenComputer = { task, driver: driver!, done, pending: null };
    this.open.set(task.id, opened);
    void done.finally(() => this.open.delete(task.id));
    const first = await Promise.race([opened.driver.ready.then(() => null), done]);
    if (first) throw ended(first);
    return task;
  }

  /** Runs one call on an open computer, or says that it waits for approval. */
  async call(computerId: string, tool: AgentTool, input: unknown, asking: AskOptions): Promise<CallToolResult> {
    const computer = this.find(computerId);
    if (computer.pending) {
      throw new AppError("TASK_NOT_RUNNING", `Computer ${computerId} waits for a decision on its last call: answer it with answer_person first.`);
    }
    return this.settle(computer, computer.driver.call(tool, input), asking);
  }

  /** After a decision on a computer's call: the call's result, or that it waits for another one. */
  async decided(computerId: string, approvalId: string, asking: AskOptions): Promise<CallToolResult | null> {
    const computer = this.open.get(computerId);
    if (!computer?.pending) return null;
    const { pending } = computer;
    computer.pending = null;
    return this.settle(computer, pending, asking, approvalId);
  }

  /** Ends the computer's task, completed, once the calls already sent have run. */
  async close(computerId: string, answer: string): Promise<Task> {
    const computer = this.find(computerId);
    computer.driver.close(answer);
    return computer.done;
  }

  /** The client's MCP session ended: every computer it left open is stopped. */
  async closeAll(): Promise<void> {
    const left = [...this.open.values()];
    for (const computer of left) void this.runtime.commands.stop(computer.task.id, "the MCP client left");
    await Promise.all(left.map((computer) => computer.done));
  }

  private find(computerId: string): OpenComputer {
    const computer = this.open.get(computerId);
    if (!computer) throw new AppError("NOT_FOUND", `No computer ${computerId} is open in this MCP session; open one with open_computer.`);
    return computer;
  }

  /**
   * The call's result. When the approval policy asks first, the person is asked at the client if it
   * can (person.ts); else, or without their answer, the client is told, and the call stays pending.
   */
  private async settle(computer: OpenComputer, call: Promise<CallResult>, asking: AskOptions, answered: string | null = null): Promise<CallToolResult> {
    let asked: (approval: Approval) => void = () => undefined;
    const approval = new Promise<Approval>((resolve) => (asked = resolve));
    // A decision made in the app ends the question at the client.
    const resolved = new Set<string>();
    let askedAbout: string | null = null;
    const decidedElsewhere = new AbortController();
    const stop = await watchTask(this.store, computer.task, (event) => {
      if (event.type === "approval.requested") asked(event.approval);
      if (event.type !== "approval.resolved") return;
      resolved.add(event.approval_id);
      if (event.approval_id === askedAbout) decidedElsewhere.abort();
    });
    try {
      // One asked before the watch began (the call went on at once after the last decision) is still waiting.
      const waiting = (await this.store.getTask(computer.task.id))?.approval;
      if (waiting && waiting.id !== answered) asked(waiting);
      const first = await Promise.race([call.then((result) => ({ result }), (error: unknown) => ({ error })), approval.then((waits) => ({ waits }))]);
      if ("waits" in first) {
        const waits = approvalAsked(first.waits);
        askedAbout = waits.approval_id;
        if (resolved.has(askedAbout)) decidedElsewhere.abort();
        const reply = await this.ask(waits, { ...asking, signal: AbortSignal.any([asking.signal, decidedElsewhere.signal]) });
        const decided = resolved.has(askedAbout) || (reply !== null && (await answer(this.runtime, computer.task.id, waits, reply)));
        if (decided) return this.settle(computer, call, asking, waits.approval_id);
        computer.pending = call;
        // The person may decide in the app instead: the computer then takes calls again.
        call.catch(() => undefined).finally(() => {
          if (computer.pending === call) computer.pending = null;
        });
        return json({
          computer_id: computer.task.id,
          status: "needs_approval",
          waits_for: waits,
          next: `Nothing was done yet. Ask the person, then call answer_person with task_id ${computer.task.id}, approval_id ${waits.approval_id} and approved true or false; the person may also decide in the app.`,
        });
      }
      if ("error" in first) throw first.error instanceof AppError ? first.error : ended(await computer.done);
      return callResult(computer.task.id, first.result);
    } finally {
      stop();
    }
  }
}

/** A call's outcome as the client reads it: JSON, then the page view's text or the screenshot. */
function callResult(computerId: string, { outcome, step }: CallResult): CallToolResult {
  const more: Content[] = [];
  if (outcome.text !== undefined) more.push({ type: "text", text: outcome.text });
  const shot = outcome.image?.shot;
  if (shot) more.push({ type: "image", data: shot.data.toString("base64"), mimeType: shot.mimeType });
  const effect = step.effect ? { changed: step.effect.changed, note: step.effect.note } : null;
  const body = { computer_id: computerId, step: step.index, url: step.url, effect };
  if (!outcome.ok) return { isError: true, content: [{ type: "text", text: JSON.stringify({ ...body, ok: false, error: outcome.error }) }, ...more] };
  return json({ ...body, ok: true, data: outcome.data ?? null }, more);
}
