// A virtual X11 desktop the server owns: Xvfb on a display number it picks itself (-displayfd),
// a window manager, and the programs a task starts on it. Closing stops them all. The programs
// keep their settings, caches and first-run state in a directory of the desktop's own, which goes
// with it, and have no session bus, so none hands its window to an instance on the person's desktop.
// Given a fence (desktop-fence.ts), the programs run behind it, that directory their home; Xvfb
// stays the server's.
import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { AppError } from "../../core/errors.ts";
import { DesktopNamespace, giveDirectory, removeAsFenced, type FencedUser } from "./desktop-fence.ts";
import { isOpenbox, writeOpenboxConfig } from "./openbox-config.ts";
import { X11Session } from "./x11-session.ts";

export interface VirtualDisplayOptions {
  width: number;
  height: number;
  /** The window manager to run on it; none when null. Openbox gets a root menu of the everyday programs. */
  windowManager: string | null;
  /**
   * Runs the programs as the fenced user in a network of their own, whose way out is the network
   * fence listening at `proxySocket`; as the server's user, in its network, when absent.
   */
  fence?: { user: FencedUser; proxySocket: string };
}

const START_TIMEOUT_MS = 10_000;
/** How long a program may take to go after SIGTERM before it is killed. */
const STOP_TIMEOUT_MS = 3_000;
const STOP_POLL_MS = 20;
/** A window manager that does not name itself on the root window (EWMH) within this long is taken as up. */
const WM_START_CAP_MS = 5_000;
const WM_POLL_MS = 20;
/** The fenced programs' PATH: the system's folders, as a login shell of a user of its own has them. */
const SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

export class VirtualDisplay {
  private readonly programs = new Set<ChildProcess>();
  private namespace: DesktopNamespace | null = null;

  private constructor(
    private readonly server: ChildProcess,
    /** `:94` */
    readonly name: string,
    /** The desktop's own directory: the programs' XDG directories and the window manager's configuration. */
    private readonly dir: string,
    private readonly fence: FencedUser | null,
  ) {}

  static async start(options: VirtualDisplayOptions): Promise<VirtualDisplay> {
    const dir = await mkdtemp(path.join(tmpdir(), "easyagentcu-desktop-"));
    const xvfb = await startXvfb(options).catch(async (error: unknown) => {
      await rm(dir, { recursive: true, force: true });
      throw error;
    });
    const display = new VirtualDisplay(xvfb.server, `:${xvfb.display}`, dir, options.fence?.user ?? null);
    try {
      await Promise.all(["config", "data", "cache", "state", "runtime", "Downloads"].map((sub) => mkdir(path.join(dir, sub))));
      // The runtime directory must be the user's alone (XDG Base Directory specification).
      await chmod(path.join(dir, "runtime"), 0o700);
      // Programs save what they download where the user's folders say (xdg-user-dirs): the desktop's own.
      await writeFile(path.join(dir, "config", "user-dirs.dirs"), `XDG_DOWNLOAD_DIR="${display.downloads}"\n`);
      const wmArgs = options.windowManager && isOpenbox(options.windowManager) ? await writeOpenboxConfig(path.join(dir, "config")) : [];
      if (options.fence) {
        await giveDirectory(dir, options.fence.user);
        display.namespace = await DesktopNamespace.open((command, args) => display.spawn(command, args, ["ignore", "pipe", "ignore"]), options.fence.proxySocket);
      }
      if (options.windowManager) await windowManagerUp(display.name, options.windowManager, display.run(options.windowManager, wmArgs));
    } catch (error) {
      await display.close();
      throw error;
    }
    return display;
  }

  /** The folder the desktop's programs save downloads to, which goes with it: a new file there is an action's effect. */
  get downloads(): string {
    return path.join(this.dir, "Downloads");
  }

  /**
   * Starts a program on the display; it is stopped with the display. It leads a process group of
   * its own, so what it starts in turn (the window manager's menu opens programs) stops with it.
   */
  run(command: string, args: string[]): ChildProcess {
    if (!this.fence) return this.spawn(command, args, "ignore");
    const [wrapper, wrapped] = this.namespace!.wrap(this.fence, command, args);
    return this.spawn(wrapper, wrapped, "ignore", { env: this.fencedEnvironment(), cwd: this.dir });
  }

  private spawn(command: string, args: string[], stdio: StdioOptions, options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): ChildProcess {
    const child = spawn(command, args, { env: this.environment(), ...options, stdio, detached: true });
    this.programs.add(child);
    child.on("error", () => this.programs.delete(child));
    child.once("exit", () => this.programs.delete(child));
    return child;
  }

  async close(): Promise<void> {
    // A group's number stays its own while any of its processes lives, so it is safe to signal until it is empty.
    const groups = [...this.programs].flatMap((child) => (child.pid === undefined ? [] : [child.pid]));
    for (const group of groups) signalGroup(group, "SIGTERM");
    this.server.kill("SIGTERM");
    await Promise.all([...groups.map(groupStopped), stopped(this.server)]);
    // Only now: a program that is still going writes its settings into the directory on its way out.
    // A directory not given to the fenced user yet (the desktop failed to start) is root's alone.
    const given = this.fence && (await stat(this.dir).catch(() => null))?.uid === this.fence.uid;
    if (given) await removeAsFenced(this.dir, this.fence!);
    else await rm(this.dir, { recursive: true, force: true, maxRetries: 3 });
  }

  /** What every program on the desktop is given: its display, its directories, no session bus, a UTF-8 locale. */
  private desktopEnvironment(): NodeJS.ProcessEnv {
    const dir = (sub: string) => path.join(this.dir, sub);
    return {
      DISPLAY: this.name,
      XDG_CONFIG_HOME: dir("config"),
      XDG_DATA_HOME: dir("data"),
      XDG_CACHE_HOME: dir("cache"),
      XDG_STATE_HOME: dir("state"),
      XDG_RUNTIME_DIR: dir("runtime"),
      XDG_DOWNLOAD_DIR: this.downloads,
      // No session bus (not the person's, not one started on demand); GSettings then keeps settings in memory.
      DBUS_SESSION_BUS_ADDRESS: "disabled:",
      GSETTINGS_BACKEND: "memory",
      // The terminal shows and pastes CJK only in a UTF-8 locale.
      LANG: process.env.LANG || "C.UTF-8",
    };
  }

  /** An unfenced program's environment: the server's, with the desktop's own. */
  private environment(): NodeJS.ProcessEnv {
    return { ...process.env, ...this.desktopEnvironment() };
  }

  /**
   * A fenced program's environment: the desktop's own, its directory the home, the system's path
   * (the server's may name folders in its user's home, which the fenced user cannot enter), the
   * proxy, and of the server's variables only the locale and the time zone — the others may hold its keys.
   */
  private fencedEnvironment(): NodeJS.ProcessEnv {
    const kept = ["LC_ALL", "LC_CTYPE", "TZ"].flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]]]));
    const user = this.fence!.user;
    const own = { PATH: SYSTEM_PATH, HOME: this.dir, USER: user, LOGNAME: user, SHELL: "/bin/bash" };
    return { ...Object.fromEntries(kept), ...this.desktopEnvironment(), ...DesktopNamespace.proxyEnvironment(), ...own };
  }
}

function startXvfb(options: VirtualDisplayOptions): Promise<{ server: ChildProcess; display: string }> {
  const server = spawn("Xvfb", ["-displayfd", "3", "-screen", "0", `${options.width}x${options.height}x24`, "-nolisten", "tcp", "-noreset"], {
    stdio: ["ignore", "ignore", "pipe", "pipe"],
  });
  let errors = "";
  server.stderr!.on("data", (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-2000)));
  return new Promise<{ server: ChildProcess; display: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no display within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    let out = "";
    server.stdio[3]!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) {
        clearTimeout(timer);
        resolve({ server, display: out.trim() });
      }
    });
    server.once("error", (error) => reject(error));
    server.once("exit", (code) => reject(new Error(`Xvfb exited with ${code}: ${errors.trim()}`)));
  }).catch((error: unknown) => {
    server.kill("SIGKILL");
    throw new AppError("COMPUTER_UNAVAILABLE", `Could not start a virtual desktop (install xvfb): ${(error as Error).message}`);
  });
}

/**
 * Until the window manager has taken the screen — it names itself on the root window only after
 * it redirects new windows to itself (EWMH) — within a cap. A program mapped before then would
 * not be given the focus.
 */
async function windowManagerUp(name: string, command: string, manager: ChildProcess): Promise<void> {
  let gone = manager.exitCode !== null;
  manager.once("error", () => (gone = true)).once("exit", () => (gone = true));
  const x = await X11Session.connect(name);
  try {
    const deadline = performance.now() + WM_START_CAP_MS;
    while (!gone && !(await x.property(x.root, "_NET_SUPPORTING_WM_CHECK")) && performance.now() < deadline) await delay(WM_POLL_MS);
  } finally {
    x.close();
  }
  if (gone) throw new AppError("COMPUTER_UNAVAILABLE", `The window manager ${JSON.stringify(command)} did not start on the virtual desktop: install it, or name another in DESKTOP_WM.`);
}

/** Signals a process group (0: only asks whether it has a process left); false when it has none. */
function signalGroup(group: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-group, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Until the process group is empty; killed when it is not within STOP_TIMEOUT_MS. A process that
 * a killed one leaves unreaped (a zombie) counts until its new parent reaps it, so the wait is capped.
 */
async function groupStopped(group: number): Promise<void> {
  const started = performance.now();
  let killed = false;
  while (signalGroup(group, 0) && performance.now() - started < 2 * STOP_TIMEOUT_MS) {
    if (!killed && performance.now() - started >= STOP_TIMEOUT_MS) killed = signalGroup(group, "SIGKILL");
    await delay(STOP_POLL_MS);
  }
}

/** Resolves when the X server has exited; kills it when it has not within STOP_TIMEOUT_MS. */
function stopped(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.kill("SIGKILL"), STOP_TIMEOUT_MS);
    server.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
