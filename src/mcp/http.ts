// MCP's streamable HTTP transport at /mcp on the running server: an initialize request opens an MCP
// session (its id in the `mcp-session-id` header) with a server of its own; the session's later
// requests, its event stream (GET) and its end (DELETE) go to that server. A client that goes away
// without its DELETE leaves nothing behind: a session with no request under way (a call, its event
// stream) that is not heard from for `idleMs` is closed, and with it the computers it left open.
// The app puts the API's sign-in and token rules in front (server/app.ts).
import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Hono } from "hono";
import { createMcpServer, type McpDeps } from "./server.ts";

const SESSION_HEADER = "mcp-session-id";

interface OpenSession {
  transport: WebStandardStreamableHTTPServerTransport;
  /** Requests whose reply is still being written: a tool call, the event stream. */
  underWay: number;
  idle?: NodeJS.Timeout;
}

export function mcpRoutes(deps: McpDeps, idleMs: number) {
  const sessions = new Map<string, OpenSession>();

  /** Handles one of the session's requests, its idle clock stopped until the reply has been written or dropped. */
  const handle = async (session: OpenSession, request: Request): Promise<Response> => {
    clearTimeout(session.idle);
    session.underWay++;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      if (--session.underWay === 0) session.idle = setTimeout(() => void session.transport.close(), idleMs).unref();
    };
    try {
      return whenWritten(await session.transport.handleRequest(request), end);
    } catch (error) {
      end();
      throw error;
    }
  };

  return new Hono().all("/", async (c) => {
    const id = c.req.header(SESSION_HEADER);
    const known = id === undefined ? undefined : sessions.get(id);
    if (known) return handle(known, c.req.raw);
    if (id !== undefined) {
      return c.json({ jsonrpc: "2.0", error: { code: -32001, message: `MCP session ${id} is not open here (it ended, was idle too long, or the server restarted): initialize a new one.` }, id: null }, 404);
    }
    const session: OpenSession = {
      underWay: 0,
      transport: new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (opened) => void sessions.set(opened, session),
        onsessionclosed: (ended) => void sessions.delete(ended),
      }),
    };
    session.transport.onclose = () => {
      clearTimeout(session.idle);
      if (session.transport.sessionId) sessions.delete(session.transport.sessionId);
    };
    const server = createMcpServer(deps);
    await server.connect(session.transport);
    const reply = await handle(session, c.req.raw);
    // A first request that was not an initialize opened no session: its server goes with it.
    if (session.transport.sessionId === undefined) await server.close();
    return reply;
  });
}

/** `reply` with `done` called once its body has been written to the end, or dropped by the client. */
function whenWritten(reply: Response, done: () => void): Response {
  if (!reply.body) {
    done();
    return reply;
  }
  const reader = reply.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done: finished } = await reader.read();
        if (finished) {
          controller.close();
          done();
        } else controller.enqueue(value);
      } catch (error) {
        controller.error(error);
        done();
      }
    },
    async cancel(reason) {
      done();
      await reader.cancel(reason);
    },
  });
  return new Response(body, { status: reply.status, statusText: reply.statusText, headers: reply.headers });
}
