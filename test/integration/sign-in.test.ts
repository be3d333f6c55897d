// A server bound off loopback serves only those who sign in (issue 12): `serve --host 0.0.0.0`
// makes up a token, prints a sign-in link, and answers 401 to every request without it.
import { spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useWorld } from "../support/world.ts";

const { model } = useWorld({ app: false });

describe("a server others on the network can reach", () => {
  it("asks for the token it printed, through its sign-in link's cookie or a bearer header", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "easyagentcu-signin-"));
    const server = spawn(process.execPath, ["bin/easyagentcu.js", "serve", "--host", "0.0.0.0", "--port", "0", "--data-dir", dataDir], {
      env: { ...process.env, MODEL_BASE_URL: model.baseUrl, LOG_LEVEL: "silent" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      const link = await new Promise<string>((resolve, reject) => {
        let out = "";
        server.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          const found = /Sign in by opening (\S+)/.exec(out)?.[1];
          if (found) resolve(found);
        });
        server.once("exit", (code) => reject(new Error(`server exited with ${code}: ${out}`)));
      });
      const url = `http://127.0.0.1:${new URL(link).port}`;
      const token = new URL(link).searchParams.get("token")!;
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
    } finally {
      server.kill("SIGTERM");
      await new Promise((resolve) => server.once("exit", resolve));
    }
  });
});
