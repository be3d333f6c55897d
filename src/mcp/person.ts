// Asking the person at the MCP client (MCP elicitation), when the client can show a form: an
// approval as allow or refuse, a request to act as "I've done it". A client that cannot, a form
// dismissed, or one left unanswered leaves the task waiting, and the call answers with what it
// waits for (answer_person, or the person in the app, decides then).
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Runtime } from "../agent/runtime.ts";
import type { TaskResult } from "./follow.ts";

export type WaitsFor = NonNullable<TaskResult["waits_for"]>;

export type PersonReply = { kind: "approval"; approved: boolean } | { kind: "action"; text: string | undefined };

/** The call the question belongs to (its stream carries it), and when to stop asking. */
export interface AskOptions {
  relatedRequestId: string | number;
  signal: AbortSignal;
}

export type AskPerson = (waits: WaitsFor, options: AskOptions) => Promise<PersonReply | null>;

/** As long as a person may take to decide at the client; the task's clock is paused meanwhile. */
const ANSWER_WITHIN_MS = 10 * 60_000;

/** Asks through the client's elicitation; null when it has none, or the person gave no answer. */
export function askAtClient(server: Server): AskPerson {
  return async (waits, { relatedRequestId, signal }) => {
    if (!server.getClientCapabilities()?.elicitation) return null;
    const options = { relatedRequestId, signal, timeout: ANSWER_WITHIN_MS };
    try {
      if (waits.kind === "approval") {
        const reply = await server.elicitInput(
          {
            message: `The agent asks before it acts. ${waits.asks.join(" ")}`,
            requestedSchema: { type: "object", properties: { approve: { type: "boolean", title: "Allow it", description: "true lets the action run; false refuses it." } }, required: ["approve"] },
          },
          options,
        );
        // A refusal of the form is a refusal of the action; a form dismissed is no answer.
        if (reply.action === "decline") return { kind: "approval", approved: false };
        return reply.action === "accept" ? { kind: "approval", approved: reply.content?.approve === true } : null;
      }
      const reply = await server.elicitInput(
        {
          message: waits.question,
          requestedSchema: {
            type: "object",
            properties: { done: { type: "boolean", title: "I've done it" }, note: { type: "string", title: "What you did (optional)" } },
            required: ["done"],
          },
        },
        options,
      );
      if (reply.action !== "accept" || reply.content?.done !== true) return null;
      const note = typeof reply.content.note === "string" && reply.content.note.trim() !== "" ? reply.content.note.trim() : undefined;
      return { kind: "action", text: note };
    } catch {
      // Unanswered in time, or the task went on without it (the person decided in the app).
      return null;
    }
  };
}

/** Gives the task the person's reply; false when it no longer waits for it. */
export async function answer(runtime: Runtime, taskId: string, waits: WaitsFor, reply: PersonReply): Promise<boolean> {
  if (waits.kind === "approval" && reply.kind === "approval") return runtime.commands.decide(taskId, waits.approval_id, reply.approved);
  if (waits.kind === "action" && reply.kind === "action") return runtime.commands.acknowledge(taskId, reply.text);
  return false;
}
