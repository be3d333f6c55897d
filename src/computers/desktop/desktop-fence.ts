// The fence of a virtual desktop's programs — the window manager, the terminal, the editor, the
// file manager and whatever they start: they run as a user of their own (DESKTOP_USER), who cannot
// read the server's data dir (0700, the server's user's), and in a network namespace of the
// desktop's own, where 127.0.0.1 is not the server's. The only way out of it is an HTTP proxy on
// its loopback that leads to the browser's network fence, which judges every address as it does
// the browser's (never the server, never this machine or a private network unless allowed). X11
// still works through the display's socket in /tmp/.X11-unix. Had only where the server runs as
// root on Linux; elsewhere the desktop runs as before and says why it is not fenced.
import { execFile, type ChildProcess } from "node:child_process";
import { lchown, readdir } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { AppError } from "../../core/errors.ts";

/** The system user the desktop's programs run as, made on first use. */
export const DESKTOP_USER = "easyagentcu-desktop";
/** The proxy's port on the loopback of each desktop's namespace (HTTP_PROXY and HTTPS_PROXY name it). */
export const DESKTOP_PROXY_PORT = 3128;

/** Whether a desktop's programs can be fenced here: as whom, or why not. */
export type DesktopFence = FencedUser | { fenced: false; why: string };
export type FencedUser = { fenced: true; user: string; uid: number; gid: number };

const run = promisify(execFile);
const NAMESPACE_TIMEOUT_MS = 5_000;

/**
 * Finds out whether the fence can be had, making DESKTOP_USER when it is missing. Every failure
 * is a reason, never an error: an unfenced desktop still works, and asks before typing into a terminal.
 */
export async function prepareDesktopFence(platform: NodeJS.Platform = process.platform): Promise<DesktopFence> {
  if (platform !== "linux") return { fenced: false, why: `the fence needs Linux, and this is ${platform}` };
  if (process.getuid?.() !== 0) return { fenced: false, why: "the server does not run as root, which the fence needs to switch user and network namespace" };
  const tools = [["unshare", ["--net", "true"], "util-linux"], ["setpriv", ["--version"], "util-linux"], ["nsenter", ["--version"], "util-linux"], ["ip", ["-V"], "iproute2"]] as const;
  for (const [command, args, from] of tools) {
    try {
      await run(command, [...args]);
    } catch (error) {
      return { fenced: false, why: `${command} ${args.join(" ")} failed (${firstLine(error)}); it comes with ${from}` };
    }
  }
  try {
    const ids = await userIds().catch(async () => {
      const made = await run("useradd", ["--system", "--user-group", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", DESKTOP_USER]).catch((error: unknown) => error);
      // Another server starting beside this one may have made it first.
      return userIds().catch(() => Promise.reject(made));
    });
    return { fenced: true, user: DESKTOP_USER, ...ids };
  } catch (error) {
    return { fenced: false, why: `the user ${DESKTOP_USER} could not be made (${firstLine(error)})` };
  }
}

async function userIds(): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all(["-u", "-g"].map(async (flag) => Number((await run("id", [flag, DESKTOP_USER])).stdout.trim())));
  return { uid: uid!, gid: gid! };
}

function firstLine(error: unknown): string {
  const { stderr, message } = error as { stderr?: string; message: string };
  return (stderr?.trim() || message).split("\n")[0]!;
}

/**
 * Gives the desktop's directory (its programs' home) to the fenced user, everything in it included.
 * The directory itself goes last: until then it is root's alone (0700), so no program of the
 * fenced user — another desktop's, say — can swap a path in it for a link that root would follow.
 */
export async function giveDirectory(dir: string, fence: FencedUser): Promise<void> {
  const entries = await readdir(dir, { recursive: true });
  for (const entry of entries) await lchown(path.join(dir, entry), fence.uid, fence.gid);
  await lchown(dir, fence.uid, fence.gid);
}

/**
 * Removes a directory given to the fenced user, as that user: root walking a tree that the user's
 * programs can still change could be led by a link to delete anything.
 */
export async function removeAsFenced(dir: string, fence: FencedUser): Promise<void> {
  await run("setpriv", [`--reuid=${fence.uid}`, `--regid=${fence.gid}`, "--clear-groups", "--no-new-privs", "--", "rm", "-rf", "--", dir]);
}

/**
 * The proxy inside a namespace, run by node as root (so the desktop's user cannot stop it): each
 * connection to 127.0.0.1:port goes on to the fence's Unix socket, a file the namespace does not hide.
 */
const BRIDGE = `const net = require("node:net");
const [socketPath, port] = process.argv.slice(1);
net.createServer((inside) => {
  const fence = net.connect(socketPath);
  inside.on("error", () => fence.destroy());
  fence.on("error", () => inside.destroy());
  inside.pipe(fence).pipe(inside);
}).listen(Number(port), "127.0.0.1", () => process.stdout.write("ready\\n"));`;

/**
 * A network namespace of one desktop's own, with its loopback up, held by the proxy that leads to
 * the fence: every program of the desktop enters it, so they reach each other on 127.0.0.1, and
 * anything else only through the proxy. It goes when its holder is stopped and the last program in it has gone.
 */
export class DesktopNamespace {
  private constructor(private readonly holder: ChildProcess) {}

  /** `start` spawns the holder (the caller stops it with the desktop's programs); `fenceSocket` is the network fence's Unix socket. */
  static async open(start: (command: string, args: string[]) => ChildProcess, fenceSocket: string): Promise<DesktopNamespace> {
    // The holder says it is ready only from inside the namespace, so no program enters the server's by a race.
    const inside = ["sh", "-c", 'ip link set lo up && exec "$@"', "sh", process.execPath, "-e", BRIDGE, fenceSocket, String(DESKTOP_PROXY_PORT)];
    const holder = start("unshare", ["--net", "--", ...inside]);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no namespace within ${NAMESPACE_TIMEOUT_MS / 1000} s`)), NAMESPACE_TIMEOUT_MS);
      holder.stdout!.once("data", () => {
        clearTimeout(timer);
        holder.stdout!.destroy();
        resolve();
      });
      holder.once("error", reject).once("exit", (code) => reject(new Error(`its holder exited with ${code}`)));
    }).catch((error: unknown) => {
      throw new AppError("COMPUTER_UNAVAILABLE", `Could not give the virtual desktop a network of its own: ${(error as Error).message}.`);
    });
    return new DesktopNamespace(holder);
  }

  /** What the desktop's programs are told of the way out: the proxy, and the loopback that is theirs alone. */
  static proxyEnvironment(): NodeJS.ProcessEnv {
    const proxy = `http://127.0.0.1:${DESKTOP_PROXY_PORT}`;
    const local = "localhost,127.0.0.1,::1";
    return { http_proxy: proxy, https_proxy: proxy, HTTP_PROXY: proxy, HTTPS_PROXY: proxy, no_proxy: local, NO_PROXY: local };
  }

  /** The command that runs a program inside the namespace as the fenced user, with no supplementary groups and no way to gain privileges. */
  wrap(fence: FencedUser, command: string, args: string[]): [string, string[]] {
    if (this.holder.exitCode !== null || this.holder.signalCode !== null || this.holder.pid === undefined) {
      throw new AppError("COMPUTER_UNAVAILABLE", "The virtual desktop's network namespace is gone; start the task again.");
    }
    const user = [`--reuid=${fence.uid}`, `--regid=${fence.gid}`, "--clear-groups", "--no-new-privs"];
    return ["nsenter", [`--net=/proc/${this.holder.pid}/ns/net`, "--", "setpriv", ...user, "--", command, ...args]];
  }
}
