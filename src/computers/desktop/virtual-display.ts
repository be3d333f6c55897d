// A virtual X11 desktop the server owns: Xvfb on a display number it picks itself (-displayfd),
// a window manager, and the programs a task starts on it. Closing stops them all.
import { spawn, type ChildProcess } from "node:child_process";
import { AppError } from "../../core/errors.ts";

export interface VirtualDisplayOptions {
  width: number;
  height: number;
  /** The window manager to run on it; none when null. */
  windowManager: string | null;
}

const START_TIMEOUT_MS = 10_000;

export class VirtualDisplay {
  private readonly programs = new Set<ChildProcess>();

  private constructor(
    private readonly server: ChildProcess,
    /** `:94` */
    readonly name: string,
  ) {}

  static async start(options: VirtualDisplayOptions): Promise<VirtualDisplay> {
    const server = spawn("Xvfb", ["-displayfd", "3", "-screen", "0", `${options.width}x${options.height}x24`, "-nolisten", "tcp", "-noreset"], {
      stdio: ["ignore", "ignore", "pipe", "pipe"],
    });
    let errors = "";
    server.stderr!.on("data", (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-2000)));
    const number = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no display within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
      let out = "";
      server.stdio[3]!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("\n")) {
          clearTimeout(timer);
          resolve(out.trim());
        }
      });
      server.once("error", (error) => reject(error));
      server.once("exit", (code) => reject(new Error(`Xvfb exited with ${code}: ${errors.trim()}`)));
    }).catch((error: unknown) => {
      server.kill("SIGKILL");
      throw new AppError("COMPUTER_UNAVAILABLE", `Could not start a virtual desktop (install xvfb): ${(error as Error).message}`);
    });
    const display = new VirtualDisplay(server, `:${number}`);
    if (options.windowManager) display.run(options.windowManager, []);
    return display;
  }

  /** Starts a program on the display; it is stopped with the display. */
  run(command: string, args: string[]): ChildProcess {
    const child = spawn(command, args, { env: { ...process.env, DISPLAY: this.name }, stdio: "ignore" });
    child.on("error", () => undefined);
    this.programs.add(child);
    child.once("exit", () => this.programs.delete(child));
    return child;
  }

  async close(): Promise<void> {
    for (const child of this.programs) child.kill("SIGTERM");
    const exited = new Promise<void>((resolve) => (this.server.exitCode !== null ? resolve() : this.server.once("exit", () => resolve())));
    this.server.kill("SIGTERM");
    await exited;
  }
}
