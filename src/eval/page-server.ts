// Serves a suite's own `pages` folder on 127.0.0.1 for the length of a run, so a suite carries the
// sites its tasks work on. Files under `files/` come as downloads; a form posted to `/upload`
// is answered with the names and sizes of the files it held, which a check can then read.
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

export interface PageServer {
  /** `http://127.0.0.1:PORT/`, which a task's relative start_url is resolved against. */
  base: string;
  origin: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css",
  ".js": "text/javascript",
  ".json": "application/json",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".txt": "text/plain; charset=utf-8",
  ".csv": "text/csv; charset=utf-8",
  ".pdf": "application/pdf",
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export async function servePages(folder: string): Promise<PageServer> {
  const root = path.resolve(folder);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method === "POST" && url.pathname === "/upload") {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        void new Response(Buffer.concat(chunks), { headers: { "content-type": req.headers["content-type"] ?? "" } })
          .formData()
          .then((form) => {
            const files = [...form.values()].flatMap((value) => (typeof value === "string" || value.size === 0 ? [] : [`${value.name} (${value.size} bytes)`]));
            res.writeHead(200, { "content-type": TYPES[".html"] }).end(`<!doctype html><title>Upload received</title><h1>Upload received</h1><p id="received">${escapeHtml(files.join(", ") || "no file")}</p>`);
          })
          .catch(() => res.writeHead(400).end("not a multipart form"));
      });
      return;
    }
    const file = path.join(root, path.normalize(decodeURIComponent(url.pathname)).replace(/^([/\\])+/, "") || "index.html");
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    readFile(file).then(
      (data) => {
        const download = path.relative(root, file).split(path.sep)[0] === "files";
        res
          .writeHead(200, {
            "content-type": TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream",
            ...(download ? { "content-disposition": `attachment; filename="${path.basename(file)}"` } : {}),
          })
          .end(data);
      },
      () => res.writeHead(404, { "content-type": "text/plain" }).end("not found"),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    base: `${origin}/`,
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
