// The agent's browser sends no UDP the network fence does not carry (issue 31): a page's WebRTC
// connection, asked to reach a STUN server on this machine, sends it nothing, since the fence is an
// HTTP proxy that carries no UDP.
import { createSocket, type Socket } from "node:dgram";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureHost, openScreen } from "../support/fixture-browser.ts";
import { startFixtureServer, type FixtureServer } from "../support/fixture-server.ts";

let pages: FixtureServer;
/** A STUN server nobody allowed, which only counts the packets it gets. */
let stun: Socket;
let packets = 0;

beforeAll(async () => {
  pages = await startFixtureServer();
  stun = createSocket("udp4");
  stun.on("message", () => void packets++);
  await new Promise<void>((resolve) => stun.bind(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  await pages?.close();
  await new Promise<void>((resolve) => (stun ? stun.close(() => resolve()) : resolve()));
});

describe("a page's WebRTC connection", () => {
  it("sends no UDP packet to a STUN server the fence does not carry", async () => {
    const host = fixtureHost();
    try {
      const computer = await openScreen(host);
      await computer.navigate(pages.url(`webrtc.html?stun=${(stun.address() as AddressInfo).port}`));
      await pages.waitForRecord("webrtc gathering");
      // A STUN request goes out at once and is sent again for seconds while no answer comes.
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      expect(packets).toBe(0);
      await computer.close();
    } finally {
      await host.close();
    }
  });
});
