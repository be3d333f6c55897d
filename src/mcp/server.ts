// One MCP server per client connection (stdio, or an HTTP session at /mcp): the task tools and the
// computer tools over the runtime and the store. Closing it stops the computers its client left open.
import { createRequire } from "node:module";
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

/** The package's version, which the client is told with the server's name. */
const VERSION = (createRequire(import.meta.url)("../../package.json") as { version: string }).version;

export function createMcpServer({ store, runtime }: McpDeps): McpServer {
  const server = new McpServer({ name: "easyagentcu", version: VERSION }, { capabilities: { tools: {} } });
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
