// The computer itself, for a client that plans on its own: open_computer opens a browser (a task
// the app shows), then page_view (the page with refs), screenshot, and click, type, key, scroll and
// navigate by ref or point — each the browser toolset's own tool, so run through the same hands,
// fence, approval policy and recording as a task's — until close_computer, or the MCP session's end.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { browserMembers, type AgentTool } from "../tools/index.ts";
import type { ClientComputers } from "./computers.ts";
import { answering, json } from "./results.ts";

/** Our MCP name for each browser toolset member a client drives the computer with. */
const OFFERED = {
  page_view: "read_page",
  screenshot: "screenshot",
  click: "left_click",
  type: "type",
  key: "key",
  scroll: "scroll",
  navigate: "navigate",
} as const;

const computerId = z.string().min(1).max(100).describe("The computer's id, as open_computer answered it.");

export function registerComputerTools(server: McpServer, computers: ClientComputers): void {
  server.registerTool(
    "open_computer",
    {
      description:
        "Open a browser to drive step by step with page_view, screenshot, click, type, key, scroll and navigate; close it with close_computer (it also closes when this MCP session ends). Each call is one step of a task the app shows, checked by the same approval policy.",
      inputSchema: {
        start_url: z.string().url().refine((u) => /^https?:/.test(u), "must be an http(s) URL").optional().describe("Open this page first."),
        max_steps: z.number().int().min(1).max(1000).optional().describe("The most calls it takes, when lower than the server's MAX_STEPS."),
      },
    },
    ({ start_url, max_steps }) =>
      answering(async () => {
        const task = await computers.start({ startUrl: start_url, maxSteps: max_steps });
        return json({ computer_id: task.id, task_id: task.id, session_id: task.session_id, next: "Call page_view to read the page and its refs, or screenshot to see it." });
      }),
  );

  server.registerTool(
    "close_computer",
    { description: "Close a computer opened with open_computer: its task ends, completed with your summary.", inputSchema: { computer_id: computerId, summary: z.string().max(2_000).optional() } },
    ({ computer_id, summary }) =>
      answering(async () => {
        const task = await computers.close(computer_id, summary ?? "Closed by the MCP client.");
        return json({ computer_id, status: task.status, steps: task.current_step_index });
      }),
  );

  const members = browserMembers({ vision: true, computer: "browser" });
  for (const [name, memberName] of Object.entries(OFFERED)) {
    const member = members.find((tool) => tool.name === memberName) as AgentTool<z.ZodObject> | undefined;
    if (!member) throw new Error(`the browser toolset has no ${memberName}`);
    const input = member.input.omit({ tab_id: true }).extend({ computer_id: computerId });
    server.registerTool(name, { description: member.description, inputSchema: input }, (args, extra) =>
      answering(() => {
        const { computer_id, ...rest } = args as { computer_id: string } & Record<string, unknown>;
        return computers.call(computer_id, member, rest, { relatedRequestId: extra.requestId, signal: extra.signal });
      }),
    );
  }
}
