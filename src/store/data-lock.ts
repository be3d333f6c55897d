// One server per data dir: the server holds a local socket in the data dir for as long as it
// runs. A second server finds it answering and refuses to start, before it would touch the first
// one's tasks; a socket left by a killed server answers nothing and is taken over.
import { createHash } from "node:crypto";
import { mkdir, unlink } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { AppError } from "../core/errors.ts";

export interface DataLock {
  release(): Promise<void>;
}

export async function lockDataDir(dataDir: string): Promise<DataLock> {
  const address = socketPath(dataDir);
  await mkdir(path.resolve(dataDir), { recursive: true });
  const server = net.createServer((socket) => socket.end());
  try {
    await listen(server, address);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    if (await answers(address)) {
      throw new AppError("DATA_DIR_LOCKED", `Another EasyAgentCU server is using ${dataDir}; stop it first, or give this one another --data-dir.`);
    }
    if (process.platform !== "win32") await unlink(address).catch(() => undefined);
    await listen(server, address);
  }
  server.unref();
  return { release: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A socket file in the data dir; on Windows a named pipe named after it. */
function socketPath(dataDir: string): string {
  const absolute = path.resolve(dataDir);
  if (process.platform === "win32") return `\\\\.\\pipe\\easyagentcu-${createHash("sha256").update(absolute).digest("hex").slice(0, 16)}`;
  return path.join(absolute, "server.lock");
}

function listen(server: net.Server, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(address, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

function answers(address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(address);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
