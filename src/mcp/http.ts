// MCP's streamable HTTP transport at /mcp on the running server: an initialize request opens an MCP
// session (its id in the `mcp-session-id` header) with a server of its own; the session's later
// requests, its event stream (GET) and its end (DELETE) go to that server. The app puts the API's
// sign-in and token rules in front (server/app.ts).
import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Hono } from "hono";
import { createMcpServer, type McpDeps } from "./server.ts";

const SESSION_HEADER = "mcp-session-id";

export function mcpRoutes(deps: McpDeps) {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  return new Hono().all("/", async (c) => {
    const id = c.req.header(SESSION_HEADER);
    const known = id === undefined ? undefined : sessions.get(id);
    if (known) return known.handleRequest(c.req.raw);
    if (id !== undefined) {
      return c.json({ jsonrpc: "2.0", error: { code: -32001, message: `MCP session ${id} is not open here (it ended, or the server restarted): initialize a new one.` }, id: null }, 404);
    }
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (opened) => void sessions.set(opened, transport),
      onsessionclosed: (ended) => void sessions.delete(ended),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    const server = createMcpServer(deps);
    await server.connect(transport);
    const reply = await transport.handleRequest(c.req.raw);
    // A first request that was not an initialize opened no session: its server goes with it.
    if (transport.sessionId === undefined) await server.close();
    return reply;
  });
}
