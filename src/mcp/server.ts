// One MCP server per client connection (stdio, or an HTTP session at /mcp): the task tools and the
// computer tools over the runtime and the store. Closing it stops the computers its client left open.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Runtime } from "../agent/runtime.ts";
import type { Store } from "../store/store.ts";
import { ClientComputers } from "./computers.ts";
import { registerComputerTools } from "./computer-tools.ts";
import { askAtClient } from "./person.ts";
import { registerTaskTools } from "./task-tools.ts";

export interface McpDeps {
  store: Store;
  runtime: Runtime;
}

export const MCP_SERVER_NAME = "easyagentcu";

export function createMcpServer({ store, runtime }: McpDeps): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version: "1.0.0" }, { capabilities: { tools: {} } });
  const ask = askAtClient(server.server);
  const computers = new ClientComputers(store, runtime, ask);
  registerTaskTools(server, { store, runtime, computers, ask });
  registerComputerTools(server, computers);
  const closed = server.server.onclose;
  server.server.onclose = () => {
    closed?.();
    void computers.closeAll();
  };
  return server;
}
