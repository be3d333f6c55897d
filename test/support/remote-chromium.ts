// Chromiums of someone else's for the tests of leased browsers: each started with a DevTools port
// of its own, as a browser pool or a browser service runs them.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./chromium.ts";

export interface Remote {
  process: ChildProcess;
  url: string;
}

/** A Chromium of someone else's, serving DevTools on a port of its own. */
export async function startRemote(): Promise<Remote> {
  const profile = await mkdtemp(path.join(tmpdir(), "easyagentcu-remote-chrome-"));
  const child = spawn(CHROMIUM_PATH, ["--headless", "--no-sandbox", ...CHROMIUM_ARGS, "--remote-debugging-port=0", `--user-data-dir=${profile}`, "about:blank"], { stdio: ["ignore", "ignore", "pipe"] });
  const url = await new Promise<string>((resolve, reject) => {
    let said = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      said += chunk.toString();
      const port = /DevTools listening on ws:\/\/127\.0\.0\.1:(\d+)\//.exec(said)?.[1];
      if (port) resolve(`http://127.0.0.1:${port}`);
    });
    child.once("exit", (code) => reject(new Error(`chromium exited with ${code}: ${said}`)));
  });
  return { process: child, url };
}

/** The pages a browser shows, as its DevTools list them. */
export async function pagesOf(devtools: string): Promise<{ url: string; title: string }[]> {
  const list = (await (await fetch(`${devtools}/json/list`)).json()) as { type: string; url: string; title: string }[];
  return list.filter((t) => t.type === "page");
}
