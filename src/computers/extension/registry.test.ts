// The registry's wait for an extension, over real WebSockets on loopback: a task sent while the
// extension is reconnecting gets it once it has said hello (seed 004 §5.1: PLUGIN_OFFLINE is
// tried once more after a second), and one sent with none coming is told PLUGIN_OFFLINE.
import type { AddressInfo } from "node:net";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import { ExtensionRegistry } from "./registry.ts";

const events = { takeover: () => undefined, overlay: () => undefined, snapshot: () => undefined, download: () => undefined };
const opened: { close(): void }[] = [];
afterEach(() => opened.splice(0).forEach((o) => o.close()));

async function registryOnLoopback(): Promise<{ registry: ExtensionRegistry; url: string }> {
  const registry = new ExtensionRegistry(events, pino({ level: "silent" }));
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  server.on("connection", (socket) => registry.accept(socket));
  await new Promise((resolve) => server.once("listening", resolve));
  opened.push(registry, server);
  return { registry, url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function connectExtension(url: string, clientId: string): void {
  const socket = new WebSocket(url);
  opened.push(socket);
  socket.on("open", () => socket.send(JSON.stringify({ type: "hello", clientId, name: "EasyAgentCU", version: "0.1.0", userAgent: "test" })));
}

describe("waiting for an extension", () => {
  it("gets the one that says hello within the time, any one when none is asked for", async () => {
    const { registry, url } = await registryOnLoopback();
    const waiting = registry.waitFor(null, 5_000);
    setTimeout(() => connectExtension(url, "client-reconnecting"), 200);
    expect((await waiting)?.info.clientId).toBe("client-reconnecting");
    expect(registry.bind("task-1").info.clientId).toBe("client-reconnecting");
  });

  it("gives up after the time, and the task is told PLUGIN_OFFLINE", async () => {
    const { registry } = await registryOnLoopback();
    expect(await registry.waitFor(null, 100)).toBeNull();
    expect(() => registry.bind("task-1")).toThrow(expect.objectContaining({ code: "PLUGIN_OFFLINE", retryable: true }));
  });
});
