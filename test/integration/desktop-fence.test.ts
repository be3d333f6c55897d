// The desktop is fenced like the browser: a command a task types into the terminal of the server's
// own virtual desktop neither reaches EasyAgentCU's API nor reads its data dir, and runs as a user
// of its own. A desktop whose programs cannot be fenced (here, a display of the person's own) asks
// the person before keys go to a terminal, whatever the policy says of keyboard_input.
import { mkdtemp, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { DESKTOP_USER } from "../../src/computers/desktop/desktop-fence.ts";
import { VirtualDisplay } from "../../src/computers/desktop/virtual-display.ts";
import { startSystem } from "../../src/cli/system.ts";
import { loadConfig } from "../../src/core/load-config.ts";
import { INSTALL_TOKEN_HEADER, type SessionEvent, type SessionsReply } from "../../src/protocol/index.ts";
import { startApp } from "../support/app.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { desktopFolder, fileText, TERMINAL } from "../support/terminal.ts";
import { useWorld } from "../support/world.ts";

const { model, pages, app } = useWorld({ config: { computer: "desktop", desktop: { apps: [TERMINAL] } } });

/** Clicks into the terminal once `up` resolves, types `command` and Enter, and says done once `ran` resolves. */
function typeIntoTerminal(task: string, command: string, up: Promise<void>, ran: Promise<unknown>): void {
  model.route(
    (r) => planningText(r).includes(`Task: ${task}`),
    { ...act("click", { x: 200, y: 100 }, "Clicking into the terminal"), until: up },
    act("type", { text: `${command}\n` }, "Typing the command"),
    { ...act("done", { answer: "Typed." }, "Finished"), until: ran },
  );
}

describe("the server's own virtual desktop", () => {
  it("keeps a command typed into its terminal off the server's API and out of its data dir", async () => {
    const out = await desktopFolder("easyagentcu-desktop-fence-");
    const port = new URL(app.url).port;
    const { json: before } = await app.api<SessionsReply>("GET", "/api/sessions");
    // One line, as a task typed it: make a chat through the API with the data dir's token, then
    // copy the token, and say who ran it.
    const command = [
      `curl -s -o /dev/null -w '%{http_code}' -X POST http://127.0.0.1:${port}/api/sessions -H "${INSTALL_TOKEN_HEADER}: $(cat ${app.dataDir}/install-token)" -H 'content-type: application/json' -d '{"title":"escaped"}' > ${out}/status.txt`,
      `cat ${app.dataDir}/install-token > ${out}/token.txt`,
      `id -un > ${out}/who.txt`,
      `echo ran > ${out}/ran.txt`,
    ].join("; ");
    const task = "make a chat through the server's own API";
    const ran = fileText(path.join(out, "ran.txt"));
    let terminalUp = () => {};
    typeIntoTerminal(task, command, new Promise<void>((resolve) => (terminalUp = resolve)), ran);
    const events = await openStream(app.url, "s-fence", 0);
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-fence", text: task });
    await events.waitFor((e) => e.type === "screen.live" && e.window?.endsWith("— XTerm") === true, 30_000);
    terminalUp();
    expect(await events.completes(json.task_id, 60_000)).toMatchObject({ answer: "Typed." });
    events.close();
    expect((await ran).trim()).toBe("ran");
    // curl could not connect (000): no chat was made, and the token was not read.
    expect(await fileText(path.join(out, "status.txt"), () => true, 0)).toBe("000");
    const { json: after } = await app.api<SessionsReply>("GET", "/api/sessions");
    expect(after.sessions.filter((s) => s.title === "escaped")).toEqual([]);
    expect(after.sessions).toHaveLength(before.sessions.length + 1);
    expect(await fileText(path.join(out, "token.txt"), () => true, 0)).toBe("");
    // The terminal's shell runs as the desktop's own user, and what it writes is that user's.
    expect((await fileText(path.join(out, "who.txt"))).trim()).toBe(DESKTOP_USER);
    expect((await stat(path.join(out, "who.txt"))).uid).not.toBe(process.getuid!());
  });
});

describe("the way out of the server's own virtual desktop", () => {
  it("is the network fence: an allowed site is reached through it, the server is not", async () => {
    const out = await desktopFolder("easyagentcu-desktop-proxy-");
    const port = new URL(app.url).port;
    // The fixture server is on this machine's loopback, so the proxy must be used for it too.
    const command = [
      `curl -s -o /dev/null -w '%{http_code}' --noproxy '' -d from-the-desktop ${pages.url("record")} > ${out}/page.txt`,
      `curl -s --noproxy '' -o ${out}/server.html -w '%{http_code}' -X POST http://127.0.0.1:${port}/api/sessions -H "${INSTALL_TOKEN_HEADER}: $(cat ${app.dataDir}/install-token)" -H 'content-type: application/json' -d '{"title":"proxied"}' > ${out}/server.txt`,
      `echo ran > ${out}/ran.txt`,
    ].join("; ");
    const task = "reach a site and the server through the proxy";
    const ran = fileText(path.join(out, "ran.txt"));
    let terminalUp = () => {};
    typeIntoTerminal(task, command, new Promise<void>((resolve) => (terminalUp = resolve)), ran);
    const events = await openStream(app.url, "s-fence-proxy", 0);
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-fence-proxy", text: task });
    await events.waitFor((e) => e.type === "screen.live" && e.window?.endsWith("— XTerm") === true, 30_000);
    terminalUp();
    expect(await events.completes(json.task_id, 60_000)).toMatchObject({ answer: "Typed." });
    events.close();
    expect((await ran).trim()).toBe("ran");
    expect(await fileText(path.join(out, "page.txt"), () => true, 0)).toBe("204");
    expect(pages.records).toContain("from-the-desktop");
    expect(await fileText(path.join(out, "server.txt"), () => true, 0)).toBe("403");
    expect(await fileText(path.join(out, "server.html"), () => true, 0)).toContain("EasyAgentCU's network policy");
    expect((await app.api<SessionsReply>("GET", "/api/sessions")).json.sessions.filter((s) => s.title === "proxied")).toEqual([]);
  });
});

describe("a desktop whose programs are not fenced (a display of the person's own)", () => {
  it("is named by the server as it starts, in a warning that says why", async () => {
    const lines: string[] = [];
    const log = pino({ level: "warn" }, new Writable({ write: (chunk: Buffer, _encoding, done) => done(void lines.push(chunk.toString())) }));
    const dataDir = await mkdtemp(path.join(tmpdir(), "easyagentcu-test-"));
    const config = loadConfig({}, { dataDir, port: 0, computer: "desktop", desktop: { display: ":0" }, model: { baseUrl: model.baseUrl, name: "scripted-vl", apiKey: "test-key" } });
    await (await startSystem(config, { recover: false }, log)).close();
    const warned = lines.map((line) => JSON.parse(line) as { level: number; msg: string; why?: string }).find((line) => line.msg.includes("not fenced"));
    expect(warned).toMatchObject({ level: 40, msg: expect.stringContaining("typing into a terminal asks the person first"), why: expect.stringContaining("DESKTOP_DISPLAY") });
  });

  it("asks the person before typing into a terminal, though the policy allows keyboard_input", async () => {
    const display = await VirtualDisplay.start({ width: 1024, height: 768, windowManager: "openbox" });
    const [command, ...args] = TERMINAL.split(" ");
    display.run(command!, args);
    const own = await startApp({ modelBaseUrl: model.baseUrl, config: { computer: "desktop", desktop: { display: display.name } } });
    try {
      const out = await desktopFolder("easyagentcu-desktop-unfenced-");
      const task = "write into a file from the person's terminal";
      let terminalUp = () => {};
      const events = await openStream(own.url, "s-unfenced", 0);
      const denied = events.waitFor((e) => e.type === "approval.requested", 60_000);
      typeIntoTerminal(task, `echo typed > ${out}/typed.txt`, new Promise<void>((resolve) => (terminalUp = resolve)), denied);
      const { json } = await own.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-unfenced", text: task });
      await events.waitFor((e) => e.type === "screen.live" && e.window?.endsWith("— XTerm") === true, 30_000);
      terminalUp();
      const asked = (await denied) as Extract<SessionEvent, { type: "approval.requested" }>;
      expect(asked.approval.checks.map((c) => c.code)).toEqual(["keyboard_input"]);
      expect(asked.approval.checks[0]!.message).toContain('types into the terminal "XTerm"');
      await own.api("POST", "/api/chat/approve", { task_id: json.task_id, approval_id: asked.approval.id, approved: false });
      await events.waitForEnd(json.task_id, 30_000);
      events.close();
      expect(await fileText(path.join(out, "typed.txt"), () => false, 1_000)).toBe("");
    } finally {
      await own.close();
      await display.close();
    }
  });
});
