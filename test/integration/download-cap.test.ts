// A download that grows past the cap is cancelled as it arrives, not after it has all come, and
// nothing of it is left where it would have been kept. The site here sends a large file slowly,
// without saying its size, as many servers do.
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserHost } from "../../src/computers/browser/browser-host.ts";
import type { IncomingFile } from "../../src/computers/computer.ts";

const CHUNK = Buffer.alloc(256 * 1024, 0x41);
/** 40 chunks a quarter of a second apart: 10 MB over ten seconds, were it let through. */
const CHUNKS = 40;
let origin: string;
const server = createServer((req, res) => {
  if (req.url === "/") {
    res.writeHead(200, { "content-type": "text/html" }).end(`<a href="/big" download style="position:absolute;left:0;top:0;width:200px;height:100px">Big file</a>`);
    return;
  }
  res.writeHead(200, { "content-type": "application/octet-stream" });
  let sent = 0;
  const timer = setInterval(() => {
    res.write(CHUNK);
    if (++sent === CHUNKS) {
      clearInterval(timer);
      res.end();
    }
  }, 250);
  res.on("close", () => clearInterval(timer));
});

beforeAll(async () => {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => void server.close());

describe("a download larger than the cap", () => {
  it("is cancelled once it passes the cap, long before it would have ended, and leaves no file", async () => {
    const host = new BrowserHost({ headless: true, network: () => ({ allowedOrigins: [origin], blockedDomains: [], allowedDomains: [], serverPorts: new Set(), localAddresses: [] }) });
    try {
      const computer = await host.open({ width: 800, height: 600, jpegQuality: 80, navigationTimeoutMs: 10_000 });
      const arrived = new Promise<IncomingFile>((resolve) => computer.receiveFiles(resolve));
      await computer.navigate(`${origin}/`);
      await computer.click(100, 50);
      const file = await arrived;
      const target = path.join(await mkdtemp(path.join(tmpdir(), "easyagentcu-cap-")), file.name);
      const started = Date.now();
      const saved = await file.saveAs(target, 1024 * 1024);
      expect(saved).toMatchObject({ type: "too_large" });
      // The whole file would take ten seconds.
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(existsSync(target)).toBe(false);
      await computer.close();
    } finally {
      await host.close();
    }
  }, 60_000);
});
