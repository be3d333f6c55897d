// A server bound off loopback serves only those who sign in (issue 12): `serve --host 0.0.0.0`
// makes up a token, prints a sign-in link, and answers 401 to every request without it — the
// extension's WebSocket included, which there takes the install token only beside the sign-in one
// (issue 31).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { EXTENSION_WS_PATH } from "../../src/protocol/index.ts";
import { useWorld } from "../support/world.ts";

const { model } = useWorld({ app: false });

let server: ChildProcess;
let dataDir = "";
/** Where the server answers, on loopback, and the sign-in token it printed. */
let url = "";
let token = "";

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "easyagentcu-signin-"));
  server = spawn(process.execPath, ["bin/easyagentcu.js", "serve", "--host", "0.0.0.0", "--port", "0", "--data-dir", dataDir], {
    env: { ...process.env, MODEL_BASE_URL: model.baseUrl, LOG_LEVEL: "silent" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const link = await new Promise<string>((resolve, reject) => {
    let out = "";
    server.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const found = /Sign in by opening (\S+)/.exec(out)?.[1];
      if (found) resolve(found);
    });
    server.once("exit", (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
  url = `http://127.0.0.1:${new URL(link).port}`;
  token = new URL(link).searchParams.get("token")!;
});
afterAll(async () => {
  if (!server || server.exitCode !== null) return;
  server.kill("SIGTERM");
  await new Promise((resolve) => server.once("exit", resolve));
});

/** The HTTP status the extension's WebSocket upgrade is answered with: 101 when it opened. */
function upgradeStatus(query: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace("http:", "ws:")}${EXTENSION_WS_PATH}?${query}`, { headers });
    ws.once("open", () => {
      ws.close();
      resolve(101);
    });
    ws.once("unexpected-response", (_request, response) => {
      resolve(response.statusCode ?? 0);
      response.resume();
    });
    ws.once("error", reject);
  });
}

describe("a server others on the network can reach", () => {
  it("asks for the token it printed, through its sign-in link's cookie or a bearer header", async () => {
    expect(token.length).toBeGreaterThanOrEqual(32);

    const anonymous = await fetch(`${url}/api/sessions`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { code: "UNAUTHORIZED" } });
    expect((await fetch(`${url}/`)).status).toBe(401);
    expect((await fetch(`${url}/login?token=wrong-${token}`, { redirect: "manual" })).status).toBe(401);

    const signedIn = await fetch(`${url}/login?token=${token}`, { redirect: "manual" });
    expect(signedIn.status).toBe(302);
    const cookie = signedIn.headers.get("set-cookie")!;
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Strict");
    expect((await fetch(`${url}/api/sessions`, { headers: { cookie: cookie.split(";")[0]! } })).status).toBe(200);
    expect((await fetch(`${url}/api/sessions`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it("lets the extension connect with the install token only once it is signed in too", async () => {
    const install = (await readFile(path.join(dataDir, "install-token"), "utf8")).trim();
    const withInstall = `token=${encodeURIComponent(install)}`;
    expect(await upgradeStatus(withInstall)).toBe(401);
    expect(await upgradeStatus(`${withInstall}&signin=wrong-${token}`)).toBe(401);
    // The sign-in token without the install token is not enough either.
    expect(await upgradeStatus(`signin=${encodeURIComponent(token)}`)).toBe(403);

    // The extension, which can set no header on a WebSocket, gives it in the address; others as the API takes it.
    expect(await upgradeStatus(`${withInstall}&signin=${encodeURIComponent(token)}`)).toBe(101);
    expect(await upgradeStatus(withInstall, { authorization: `Bearer ${token}` })).toBe(101);
    expect(await upgradeStatus(withInstall, { cookie: `easyagentcu_token=${token}` })).toBe(101);
  });
});
