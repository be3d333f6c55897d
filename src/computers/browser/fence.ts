// The network fence of the browser we launch: each task's browser context reaches the network
// only through this proxy (its context's proxy, loopback included), which resolves every host
// itself, judges each address with the network policy, and connects to the address it judged — so
// neither a redirect, a popup, a frame, a form post nor a name that resolves to this machine gets
// past it. Plain HTTP is forwarded; HTTPS and WebSockets are tunnelled with CONNECT. Chromium's own
// connections, made outside any task's context (its updater, Google accounts), go to a second
// proxy that refuses them all. Leased browsers on other machines reach it at an address of the
// network's (`openTo`), where every connection must carry this process's proxy credentials.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { lookup } from "node:dns/promises";
import http from "node:http";
import net from "node:net";
import { blockedName, judge, outsideAllowed, type NetworkPolicy, type Verdict } from "../../core/network-policy.ts";

/** A context's proxy: the fence, with the credentials it asks for where it listens for other machines. */
export interface ContextProxy {
  server: string;
  username?: string;
  password?: string;
}

/** The proxy user name leased browsers elsewhere give; the password is made for each process. */
const PROXY_USER = "easyagentcu";

export class Fence {
  private readonly sockets: net.Server[] = [];

  private constructor(
    private readonly server: http.Server,
    readonly port: number,
    /** Where Chromium's own connections go: nowhere. */
    private readonly closed: http.Server,
    /** Connections that came from another machine (`openTo`): only those with the credentials are served. */
    private readonly outside: WeakSet<net.Socket>,
    private readonly password: string,
  ) {}

  /** Starts the proxies on 127.0.0.1; `policy` is read for every connection, so it may change. */
  static async start(policy: () => NetworkPolicy): Promise<Fence> {
    const outside = new WeakSet<net.Socket>();
    const password = randomBytes(18).toString("base64url");
    const expected = Buffer.from(`Basic ${Buffer.from(`${PROXY_USER}:${password}`).toString("base64")}`);
    const admitted = (req: http.IncomingMessage) => {
      if (!outside.has(req.socket)) return true;
      const given = Buffer.from(req.headers["proxy-authorization"] ?? "");
      return given.length === expected.length && timingSafeEqual(given, expected);
    };
    const server = http.createServer((req, res) => {
      if (admitted(req)) void forward(req, res, policy());
      else res.writeHead(407, { "proxy-authenticate": 'Basic realm="EasyAgentCU"' }).end();
    });
    server.on("connect", (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
      if (admitted(req)) void tunnel(req, socket, head, policy());
      else socket.on("error", () => socket.destroy()).end('HTTP/1.1 407 Proxy Authentication Required\r\nproxy-authenticate: Basic realm="EasyAgentCU"\r\n\r\n');
    });
    server.on("clientError", (_error, socket) => socket.destroy());
    const closed = http.createServer((_req, res) => res.writeHead(403).end());
    // A socket handed over by "connect" is this handler's: a reset (Chromium giving up) must not go unheard.
    closed.on("connect", (_req: http.IncomingMessage, socket: net.Socket) => socket.on("error", () => socket.destroy()).end("HTTP/1.1 403 Forbidden\r\n\r\n"));
    closed.on("clientError", (_error, socket) => socket.destroy());
    await Promise.all([server, closed].map((s) => new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve))));
    return new Fence(server, (server.address() as net.AddressInfo).port, closed, outside, password);
  }

  /**
   * What Chromium is started with. Its own connections go to the proxy that refuses them: a task's
   * context has a proxy of its own (`contextProxy`), but the browser's background services
   * (component updates, Google accounts, safe browsing) run outside any context, and the switches
   * that should quiet them leave some that went out through the fence to the internet. The proxies
   * carry no UDP, so WebRTC may send none either: otherwise a page's STUN requests would reach any
   * address and port, this machine's included, past every rule of the fence.
   */
  get chromiumArgs(): string[] {
    return [
      `--proxy-server=http://127.0.0.1:${(this.closed.address() as net.AddressInfo).port}`,
      "--proxy-bypass-list=<-loopback>",
      "--webrtc-ip-handling-policy=disable_non_proxied_udp",
      // The same for builds of the engine that read only its own switch (headless shells).
      "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    ];
  }

  /**
   * Takes connections on a Unix socket too: a file, which reaches across network namespaces (a
   * fenced desktop's programs come in through it, computers/desktop/desktop-fence.ts).
   */
  async listenAt(socketPath: string): Promise<void> {
    const socket = net.createServer((connection) => this.server.emit("connection", connection));
    this.sockets.push(socket);
    await new Promise<void>((resolve, reject) => socket.once("error", reject).listen(socketPath, resolve));
  }

  /** The proxy of a task's browser context, loopback included (Playwright proxies it unless told not to). */
  get contextProxy(): ContextProxy {
    return { server: `http://127.0.0.1:${this.port}` };
  }

  /**
   * Takes connections at `address` too (`host:port`, port 0 for any), for browsers on other
   * machines (BROWSER_FENCE_ADDRESS): the proxy they are given, with the credentials it asks for.
   */
  async openTo(address: string): Promise<ContextProxy> {
    const at = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(address);
    if (!at) throw new Error(`${address} is not a host:port`);
    const host = at[1]!;
    const listener = net.createServer((connection) => {
      this.outside.add(connection);
      this.server.emit("connection", connection);
    });
    this.sockets.push(listener);
    await new Promise<void>((resolve, reject) => listener.once("error", reject).listen(Number(at[2]), host.replace(/^\[|\]$/g, ""), resolve));
    const { port } = listener.address() as net.AddressInfo;
    return { server: `http://${host}:${port}`, username: PROXY_USER, password: this.password };
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.close();
    await Promise.all(
      [this.server, this.closed].map((s) => {
        s.closeAllConnections();
        return new Promise<void>((resolve) => s.close(() => resolve()));
      }),
    );
  }
}

/** How the fence would judge a connection to this http(s) address, its host resolved as for a real one. */
export async function judgeUrl(policy: NetworkPolicy, url: URL): Promise<Verdict> {
  const verdict = await resolve(policy, url.hostname, Number(url.port || (url.protocol === "https:" ? 443 : 80)));
  return "address" in verdict ? { allowed: true } : verdict;
}

/** The address to connect to, once every address the host resolves to is judged; or why not. */
async function resolve(policy: NetworkPolicy, host: string, port: number): Promise<{ address: string } | Extract<Verdict, { allowed: false }>> {
  const bare = host.replace(/^\[|\]$/g, "");
  // A blocked name is refused as it is, whether or not it resolves.
  const blocked = blockedName(policy, bare);
  if (blocked) return blocked;
  let addresses: string[];
  try {
    addresses = net.isIP(bare) ? [bare] : (await lookup(bare, { all: true })).map((a) => a.address);
  } catch {
    return outsideAllowed(policy, bare) ?? { allowed: false, why: `${bare} could not be resolved` };
  }
  for (const address of addresses) {
    const verdict = judge(policy, bare, port, address);
    if (!verdict.allowed) return verdict;
  }
  return { address: addresses[0]! };
}

async function forward(req: http.IncomingMessage, res: http.ServerResponse, policy: NetworkPolicy): Promise<void> {
  let url: URL;
  try {
    url = new URL(req.url ?? "");
  } catch {
    res.writeHead(400).end();
    return;
  }
  const port = Number(url.port || 80);
  const target = await resolve(policy, url.hostname, port);
  if ("why" in target) {
    res.writeHead(403, { "content-type": "text/html; charset=utf-8" }).end(blockedPage(url.origin, target.why));
    return;
  }
  const headers = { ...req.headers };
  delete headers["proxy-connection"];
  const upstream = http.request({ host: target.address, port, method: req.method, path: `${url.pathname}${url.search}`, headers, setHost: false }, (reply) => {
    res.writeHead(reply.statusCode ?? 502, reply.statusMessage, reply.rawHeaders);
    reply.pipe(res);
  });
  upstream.on("error", () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
  // The browser gave up before the reply was all sent (a cancelled download, a closed tab): the site is not read any further.
  res.on("close", () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.pipe(upstream);
}

async function tunnel(req: http.IncomingMessage, socket: net.Socket, head: Buffer, policy: NetworkPolicy): Promise<void> {
  socket.on("error", () => socket.destroy());
  const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(req.url ?? "");
  if (!match) {
    socket.end("HTTP/1.1 400 Bad Request\r\n\r\n");
    return;
  }
  const port = Number(match[2]);
  const target = await resolve(policy, match[1]!, port);
  if ("why" in target) {
    socket.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\nBlocked by EasyAgentCU's network policy: ${target.why}.\n`);
    return;
  }
  const upstream = net.connect(port, target.address, () => {
    socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length > 0) upstream.write(head);
    upstream.pipe(socket);
    socket.pipe(upstream);
  });
  upstream.on("error", () => socket.destroy());
  socket.on("close", () => upstream.destroy());
}

function blockedPage(origin: string, why: string): string {
  const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><meta charset="utf-8"><title>Blocked</title><body style="font:16px sans-serif;margin:40px"><h1>Blocked</h1><p>EasyAgentCU's network policy does not let the agent open ${escape(origin)}: ${escape(why)}.</p></body>`;
}
