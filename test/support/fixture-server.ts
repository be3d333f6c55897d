// Serves the fixture pages of test/fixtures/pages on 127.0.0.1 and records what they report
// (`POST /record` with a text body, or a message on the WebSocket `/record-socket`, which no
// browser request or DOM change shows), so a test can observe what happened inside a page; the
// files a form posts to `/upload` are kept as received.
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { WebSocketServer } from "ws";

const PAGES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/pages");
// A transparent 1×1 PNG.
const PIXEL = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

export interface FixtureServer {
  url(page: string): string;
  /** Everything the pages reported, in order. */
  records: string[];
  /** Every request the server was sent, in order, as `METHOD /path`. */
  requested: string[];
  /** The files forms posted to `/upload` (multipart), in order, each as its field, file name, type and bytes. */
  uploads: ReceivedFile[];
  /** Makes changing.html show another version of itself from its next load. */
  setVariant(variant: string): void;
  waitForRecord(text: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface ReceivedFile {
  field: string;
  name: string;
  type: string;
  data: Buffer;
}

/**
 * The origins of the fixture servers running in this process, each also as "localhost" (the
 * pages' other origin): the network fence lets test apps open them.
 */
const running = new Set<string>();
export function fixtureOrigins(): string[] {
  return [...running].flatMap((origin) => [origin, origin.replace("127.0.0.1", "localhost")]);
}

/** `extra`: pages made by the caller, served beside the fixtures by name (a benchmark's generated page). */
export async function startFixtureServer(extra: Record<string, string> = {}): Promise<FixtureServer> {
  const records: string[] = [];
  const requested: string[] = [];
  const uploads: ReceivedFile[] = [];
  const waiters: { text: string; resolve: () => void }[] = [];
  let variant = "1";
  const record = (text: string) => {
    records.push(text);
    for (const w of waiters.filter((w) => w.text === text)) w.resolve();
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    requested.push(`${req.method} ${url.pathname}`);
    if (req.method === "POST" && url.pathname === "/record") {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        record(Buffer.concat(chunks).toString("utf8"));
        res.writeHead(204).end();
      });
      return;
    }
    if (req.method === "POST" && url.pathname === "/upload") {
      // Read as a server reads a multipart form: every non-empty file field is kept.
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        void new Response(Buffer.concat(chunks), { headers: { "content-type": req.headers["content-type"] ?? "" } }).formData().then(async (form) => {
          const files = [...form.entries()].flatMap(([field, value]) => (typeof value === "string" || value.size === 0 ? [] : [{ field, file: value }]));
          for (const { field, file } of files) uploads.push({ field, name: file.name, type: file.type, data: Buffer.from(await file.arrayBuffer()) });
          const list = files.map(({ field, file }) => `${field}: ${file.name} (${file.size} bytes)`).join(", ");
          res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(`<!doctype html><title>Received</title><p>Received ${list || "no file"}.</p>`);
        });
      });
      return;
    }
    if (url.pathname === "/variant") {
      // Which version of itself a page that changes between runs shows (changing.html).
      res.writeHead(200, { "content-type": "text/plain" }).end(variant);
      return;
    }
    if (url.pathname === "/redirect") {
      // Sends the browser on to `to`: a way around a check that looks only at the first address.
      res.writeHead(302, { location: url.searchParams.get("to") ?? "/" }).end();
      return;
    }
    if (url.pathname === "/sign-in") {
      // Signs the browser in as `user` with a session cookie scripts cannot read, as sites do.
      const user = url.searchParams.get("user") ?? "someone";
      res.writeHead(302, { "set-cookie": `sid=${encodeURIComponent(user)}; Path=/; HttpOnly; SameSite=Lax`, location: "/account.html" }).end();
      return;
    }
    if (url.pathname === "/whoami") {
      // Who the session cookie says the browser is (account.html).
      const sid = /(?:^|;\s*)sid=([^;]*)/.exec(req.headers.cookie ?? "")?.[1];
      res.writeHead(200, { "content-type": "text/plain" }).end(sid ? decodeURIComponent(sid) : "");
      return;
    }
    if (req.method === "POST" && url.pathname === "/slow-post") {
      // A form's post answered after `ms`, with a page that says so on green.
      setTimeout(() => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end('<!doctype html><title>Posted</title><body style="background:#00a000"><p>Posted.</p></body>'), Number(url.searchParams.get("ms") ?? 1000));
      req.resume();
      return;
    }
    if (url.pathname === "/slow-image") {
      // Holds back a page's load event for `ms`.
      setTimeout(() => res.writeHead(200, { "content-type": "image/png" }).end(PIXEL), Number(url.searchParams.get("ms") ?? 1000));
      return;
    }
    const name = url.pathname.slice(1);
    if (Object.hasOwn(extra, name)) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(extra[name]);
      return;
    }
    const file = path.join(PAGES, path.normalize(url.pathname).replace(/^([/\\])+/, ""));
    if (!file.startsWith(PAGES)) {
      res.writeHead(403).end();
      return;
    }
    readFile(file).then(
      (data) => res.writeHead(200, { "content-type": file.endsWith(".html") ? "text/html; charset=utf-8" : "application/octet-stream" }).end(data),
      () => res.writeHead(404).end("not found"),
    );
  });
  const sockets = new WebSocketServer({ noServer: true });
  sockets.on("connection", (socket) => socket.on("message", (data) => record(data.toString())));
  server.on("upgrade", (req, socket, head) => {
    if (new URL(req.url ?? "/", "http://x").pathname !== "/record-socket") return socket.destroy();
    sockets.handleUpgrade(req, socket, head, (ws) => sockets.emit("connection", ws, req));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  running.add(origin);
  return {
    url: (page) => `http://127.0.0.1:${port}/${page}`,
    records,
    requested,
    uploads,
    setVariant: (next) => {
      variant = next;
    },
    waitForRecord: (text, timeoutMs = 30_000) =>
      records.includes(text)
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`page never reported ${JSON.stringify(text)}; got ${JSON.stringify(records)}`)), timeoutMs);
            waiters.push({ text, resolve: () => (clearTimeout(timer), resolve()) });
          }),
    close: () =>
      new Promise<void>((resolve) => {
        running.delete(origin);
        for (const socket of sockets.clients) socket.terminate();
        sockets.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
