// Remote browsers (issue 38): with BROWSER_CDP_URLS each task leases a browser that runs
// elsewhere — here Chromiums the test starts with DevTools ports — holds it for its life and gives
// it back; a browser that does not answer is passed over, a task finds none free waits a bounded
// time, and its pages still go through the network fence. BROWSER_CDP_COMMAND makes a session per task.
import { mkdtemp, readFile } from "node:fs/promises";
import { createServer, request } from "node:http";
import { connect, createServer as createTcpServer, type AddressInfo } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConfigInput, DeepPartial } from "../../src/core/config.ts";
import type { SessionEvent } from "../../src/protocol/index.ts";
import { startApp, type TestApp } from "../support/app.ts";
import { pagesOf, startRemote, type Remote } from "../support/remote-chromium.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { openStream, type EventStream } from "../support/sse.ts";
import { useWorld } from "../support/world.ts";

const COMMAND = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/cdp-command.mjs");

const { model, pages } = useWorld({ app: false });

/** A port nothing listens on at `host`. */
async function freePort(host = "127.0.0.1"): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** This machine's address on its network, where a browser "on another machine" is reached. */
const NETWORK_ADDRESS = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === "IPv4" && !i.internal)?.address;

/** The DevTools of `remote` at this machine's network address, as a browser on another machine is reached: every connection passed on. */
async function fromElsewhere(remote: Remote, host: string): Promise<{ url: string; close: () => Promise<void> }> {
  const port = Number(new URL(remote.url).port);
  const relay = createTcpServer((incoming) => {
    const outgoing = connect(port, "127.0.0.1");
    incoming.pipe(outgoing).pipe(incoming);
    incoming.on("error", () => outgoing.destroy());
    outgoing.on("error", () => incoming.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, host, resolve));
  return {
    url: `http://${host}:${(relay.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => relay.close(() => resolve())),
  };
}

let a: Remote;
let b: Remote;
let dead: string;
beforeAll(async () => {
  [a, b, dead] = await Promise.all([startRemote(), startRemote(), freePort().then((port) => `http://127.0.0.1:${port}`)]);
});
afterAll(() => {
  a?.process.kill();
  b?.process.kill();
});

/** Which of the remote browsers shows a page whose address holds `marker`. */
async function whereIs(marker: string): Promise<string | null> {
  for (const remote of [a, b]) {
    if (remote.process.exitCode === null && (await pagesOf(remote.url)).some((p) => p.url.includes(marker))) return remote.url;
  }
  return null;
}

async function withApp(browser: DeepPartial<ConfigInput>["browser"], story: (app: TestApp) => Promise<void>, network?: DeepPartial<ConfigInput>["network"]): Promise<void> {
  const app = await startApp({ modelBaseUrl: model.baseUrl, config: { browser, ...(network ? { network } : {}) } });
  try {
    await story(app);
  } finally {
    await app.close();
  }
}

/** A task that opens `url` and then waits on its model until `held` settles; its stream and id. */
async function hold(app: TestApp, name: string, url: string, held: Promise<void>, session = `s-${name.replaceAll(" ", "-")}`): Promise<{ id: string; events: EventStream }> {
  model.route((r) => planningText(r).includes(`Task: ${name}`), { ...act("done", { answer: `${name} done` }), until: held });
  const events = await openStream(app.url, session, 0);
  const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: session, text: name, start_url: url });
  return { id: json.task_id, events };
}

function gate(): { held: Promise<void>; open: () => void } {
  let open!: () => void;
  const held = new Promise<void>((resolve) => (open = resolve));
  return { held, open };
}

const asked = (name: string) => model.requests.some((r) => planningText(r).includes(`Task: ${name}`));

describe("a pool of remote browsers", () => {
  it("gives each task a browser of its own, never the one that does not answer, and a third task the first one given back", async () => {
    await withApp({ cdpUrls: [dead, a.url, b.url], leaseWaitMs: 30_000 }, async (app) => {
      const [one, two, three] = [gate(), gate(), gate()];
      const first = await hold(app, "pool one", pages.url("form.html?pool=one"), one.held);
      const second = await hold(app, "pool two", pages.url("form.html?pool=two"), two.held);
      await expect.poll(() => whereIs("pool=one"), { timeout: 20_000 }).not.toBeNull();
      await expect.poll(() => whereIs("pool=two"), { timeout: 20_000 }).not.toBeNull();
      const firstBrowser = await whereIs("pool=one");
      expect(new Set([firstBrowser, await whereIs("pool=two")])).toEqual(new Set([a.url, b.url]));

      const third = await hold(app, "pool three", pages.url("form.html?pool=three"), three.held);
      await third.events.waitFor((e) => e.type === "task.started");
      // Long enough for a free browser to have been taken: none is, so its model is not asked yet.
      await delay(1_500);
      expect(asked("pool three")).toBe(false);
      expect(await whereIs("pool=three")).toBeNull();

      one.open();
      expect(await first.events.completes(first.id)).toMatchObject({ answer: "pool one done" });
      await expect.poll(() => whereIs("pool=three"), { timeout: 20_000 }).toBe(firstBrowser);
      two.open();
      three.open();
      expect(await second.events.completes(second.id)).toMatchObject({ answer: "pool two done" });
      expect(await third.events.completes(third.id)).toMatchObject({ answer: "pool three done" });
      for (const task of [first, second, third]) task.events.close();
      // Given back: their contexts closed with them, the browsers still run.
      await expect.poll(async () => (await pagesOf(a.url)).concat(await pagesOf(b.url)).filter((p) => p.url.includes("pool=")).length, { timeout: 10_000 }).toBe(0);
      expect(a.process.exitCode).toBeNull();
    });
  });

  it("fails a task that finds no browser free within BROWSER_LEASE_WAIT_MS, saying how many are busy and down", async () => {
    await withApp({ cdpUrls: [dead, a.url, b.url], leaseWaitMs: 1_000 }, async (app) => {
      const busy = gate();
      const held = [await hold(app, "busy one", pages.url("form.html?busy=one"), busy.held), await hold(app, "busy two", pages.url("form.html?busy=two"), busy.held)];
      await expect.poll(() => whereIs("busy=one"), { timeout: 20_000 }).not.toBeNull();
      await expect.poll(() => whereIs("busy=two"), { timeout: 20_000 }).not.toBeNull();
      const late = await hold(app, "too late", pages.url("form.html?late"), Promise.resolve());
      const end = (await late.events.waitForEnd(late.id)) as Extract<SessionEvent, { type: "task.failed" }>;
      expect(end).toMatchObject({ type: "task.failed", error: { code: "NO_BROWSER_FREE" } });
      expect(end.error.message).toBe(
        `No browser was free within 1 s: of the 3 in BROWSER_CDP_URLS, 2 are busy with other tasks and 1 is down (${dead}). Send the task again once a task ends, start the browsers that are down, or add browsers to BROWSER_CDP_URLS.`,
      );
      expect(asked("too late")).toBe(false);
      busy.open();
      for (const task of [...held, late]) {
        await task.events.waitForEnd(task.id);
        task.events.close();
      }
    });
  });

  it("opens each task's pages behind the network fence, which keeps EasyAgentCU's own server closed to them", async () => {
    await withApp({ cdpUrls: [a.url], leaseWaitMs: 10_000 }, async (app) => {
      const open = gate();
      // An allowed page that sends the browser on to the server: the fence, not the hands, is what stops it.
      const task = await hold(app, "reach the server", `${pages.url("redirect")}?to=${encodeURIComponent(`${app.url}/api/sessions?fenced`)}`, open.held);
      await expect.poll(async () => (await pagesOf(a.url)).find((p) => p.url.includes("?fenced"))?.title, { timeout: 20_000 }).toBe("Blocked");
      open.open();
      await task.events.completes(task.id);
      task.events.close();
    });
  });

  it("starts another chat's task signed out in the same browser, and carries a chat's sign-ins to its next task there", async () => {
    await withApp({ cdpUrls: [a.url] }, async (app) => {
      /** Who the account page, opened by a task of `session` from `start`, says the browser is; and that it showed in the leased browser. */
      const account = async (session: string, name: string, start: string) => {
        const from = pages.records.length;
        const open = gate();
        const task = await hold(app, name, start, open.held, session);
        const report = () => pages.records.slice(from).find((r) => r.startsWith("account:"));
        await expect.poll(report, { timeout: 20_000 }).toBeDefined();
        const leased = (await pagesOf(a.url)).some((p) => p.url.endsWith("account.html"));
        open.open();
        await task.events.completes(task.id);
        task.events.close();
        return `${report()}${leased ? " in the leased browser" : ""}`;
      };
      expect(await account("s-pool-signed", "sign in there", pages.url("sign-in?user=ada"))).toBe("account:ada in the leased browser");
      expect(await account("s-pool-signed", "look again there", pages.url("account.html"))).toBe("account:ada in the leased browser");
      expect(await account("s-pool-other", "look from another chat", pages.url("account.html"))).toBe("account:- in the leased browser");
    });
  });

  it("fails the task whose browser goes away, and passes that browser over", async () => {
    const doomed = await startRemote();
    try {
      await withApp({ cdpUrls: [doomed.url], leaseWaitMs: 500 }, async (app) => {
        const open = gate();
        const task = await hold(app, "lose the browser", pages.url("form.html?doomed"), open.held);
        await expect.poll(async () => (await pagesOf(doomed.url)).some((p) => p.url.includes("?doomed")), { timeout: 20_000 }).toBe(true);
        doomed.process.kill("SIGKILL");
        open.open();
        expect(await task.events.waitForEnd(task.id)).toMatchObject({ type: "task.failed", error: { code: "BROWSER_CRASHED" } });
        task.events.close();
        const next = await hold(app, "after the loss", pages.url("form.html?after"), Promise.resolve());
        const end = (await next.events.waitForEnd(next.id)) as Extract<SessionEvent, { type: "task.failed" }>;
        expect(end.error).toMatchObject({ code: "NO_BROWSER_FREE" });
        expect(end.error.message).toContain(`of the 1 in BROWSER_CDP_URLS, 0 are busy with other tasks and 1 is down (${doomed.url})`);
        next.events.close();
      });
    } finally {
      doomed.process.kill("SIGKILL");
    }
  });
});

describe.skipIf(!NETWORK_ADDRESS)("a leased browser on another machine", () => {
  it("reaches the network fence at BROWSER_FENCE_ADDRESS, which serves only it, and stays behind it", async () => {
    const host = NETWORK_ADDRESS!;
    const elsewhere = await fromElsewhere(a, host);
    const fencePort = await freePort(host);
    try {
      await withApp({ cdpUrls: [elsewhere.url], fenceAddress: `${host}:${fencePort}` }, async (app) => {
        const open = gate();
        const task = await hold(app, "work elsewhere", pages.url("form.html?elsewhere"), open.held);
        await expect.poll(() => asked("work elsewhere"), { timeout: 20_000 }).toBe(true);
        // The allowed page loaded through the fence, its requests carrying the credentials.
        expect((await pagesOf(a.url)).find((p) => p.url.includes("?elsewhere"))?.title).toBe("Fixture: form");
        open.open();
        await task.events.completes(task.id);
        task.events.close();

        const blocked = gate();
        const led = await hold(app, "led to the server", `${pages.url("redirect")}?to=${encodeURIComponent(`${app.url}/api/sessions?far`)}`, blocked.held);
        await expect.poll(async () => (await pagesOf(a.url)).find((p) => p.url.includes("?far"))?.title, { timeout: 20_000 }).toBe("Blocked");
        blocked.open();
        await led.events.completes(led.id);
        led.events.close();

        // Anyone else who reaches that address is asked for credentials they do not have.
        const status = await new Promise<number>((resolve, reject) =>
          request({ host, port: fencePort, path: pages.url("form.html") }, (reply) => {
            reply.resume();
            resolve(reply.statusCode ?? 0);
          })
            .on("error", reject)
            .end(),
        );
        expect(status).toBe(407);
      });
    } finally {
      await elsewhere.close();
    }
  });

  it("fails the task, saying what to set, when no BROWSER_FENCE_ADDRESS lets that browser reach the fence", async () => {
    const elsewhere = await fromElsewhere(a, NETWORK_ADDRESS!);
    try {
      await withApp({ cdpUrls: [elsewhere.url] }, async (app) => {
        const task = await hold(app, "no fence elsewhere", pages.url("form.html"), Promise.resolve());
        const end = (await task.events.waitForEnd(task.id)) as Extract<SessionEvent, { type: "task.failed" }>;
        expect(end.error.code).toBe("BROWSER_UNAVAILABLE");
        expect(end.error.message).toContain(`The browser at ${elsewhere.url} runs on another machine, which cannot reach the network fence on this one's loopback: set BROWSER_FENCE_ADDRESS`);
        task.events.close();
      });
    } finally {
      await elsewhere.close();
    }
  });
});

describe("a browser session made by BROWSER_CDP_COMMAND", () => {
  it("runs the command for a task, drives the browser whose address it prints, and ends the session with the task", async () => {
    const noteFile = path.join(await mkdtemp(path.join(tmpdir(), "easyagentcu-service-")), "session");
    await withApp({ cdpCommand: `node ${COMMAND} ${noteFile}` }, async (app) => {
      const open = gate();
      const task = await hold(app, "use the service", pages.url("form.html?service"), open.held);
      await expect.poll(() => asked("use the service"), { timeout: 20_000 }).toBe(true);
      const [pid, devtools] = (await readFile(noteFile, "utf8")).split(" ") as [string, string];
      expect((await pagesOf(devtools)).some((p) => p.url.includes("?service"))).toBe(true);
      open.open();
      expect(await task.events.completes(task.id)).toMatchObject({ answer: "use the service done" });
      task.events.close();
      const running = () => {
        try {
          process.kill(Number(pid), 0);
          return true;
        } catch {
          return false;
        }
      };
      await expect.poll(running, { timeout: 10_000 }).toBe(false);
    });
  });

  it("fails the task clearly when the command prints no address", async () => {
    for (const [command, why] of [
      ["echo not-an-address", "BROWSER_CDP_COMMAND printed a first line of 14 characters that is not an http(s) or ws(s) address"],
      ["echo no browser at wss://service.example/s?token=SECRET here >&2; exit 3", "BROWSER_CDP_COMMAND ended (exit code 3) before it printed an address; it wrote: no browser at wss://service.example/s here."],
    ] as const) {
      await withApp({ cdpCommand: command }, async (app) => {
        const task = await hold(app, `no address ${command.length}`, pages.url("form.html"), Promise.resolve());
        const end = (await task.events.waitForEnd(task.id)) as Extract<SessionEvent, { type: "task.failed" }>;
        expect(end.error.code).toBe("BROWSER_UNAVAILABLE");
        expect(end.error.message).toContain(why);
        task.events.close();
      });
    }
  });
});
