// The fence's plain-HTTP forwarding lets go of the site when the browser lets go of the reply: a
// download the browser cancels is not read from the site to its end.
import http from "node:http";
import type net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { Fence } from "./fence.ts";

const servers: http.Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));

describe("the fence's forwarding", () => {
  it("closes the connection to the site when the browser drops a reply still under way", async () => {
    let siteClosed: () => void = () => {};
    const closed = new Promise<void>((resolve) => (siteClosed = resolve));
    // A site that sends a large file slowly, and notes when its reader goes away.
    const site = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      const timer = setInterval(() => res.write(Buffer.alloc(16 * 1024)), 20);
      res.on("close", () => {
        clearInterval(timer);
        siteClosed();
      });
    });
    servers.push(site);
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    const sitePort = (site.address() as net.AddressInfo).port;
    const fence = await Fence.start(() => ({ allowedOrigins: [`http://127.0.0.1:${sitePort}`], blockedDomains: [], allowedDomains: [], serverPorts: new Set(), localAddresses: [] }));
    try {
      // The browser's side: a proxied GET, given up after the first bytes.
      await new Promise<void>((resolve, reject) => {
        const req = http.request({ host: "127.0.0.1", port: fence.port, path: `http://127.0.0.1:${sitePort}/big.bin`, headers: { host: `127.0.0.1:${sitePort}` } }, (res) => {
          res.once("data", () => {
            req.destroy();
            resolve();
          });
        });
        req.on("error", () => {});
        req.on("close", resolve);
        setTimeout(() => reject(new Error("no bytes came through the fence")), 5_000);
        req.end();
      });
      const gone = await Promise.race([closed.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 3_000))]);
      expect(gone).toBe(true);
    } finally {
      await fence.close();
    }
  });
});
