// One process per data dir: the server, or a `run` or `replay`, holds a local socket named after
// the data dir for as long as it runs. A second process finds it answering and refuses to start,
// before it would touch the first one's tasks; a socket left by a killed process answers nothing
// and is taken over.
import { createHash } from "node:crypto";
import { mkdir, realpath, unlink } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { AppError } from "../core/errors.ts";

export interface DataLock {
  release(): Promise<void>;
}

export async function lockDataDir(dataDir: string): Promise<DataLock> {
  await mkdir(path.resolve(dataDir), { recursive: true });
  const address = socketPath(await realpath(dataDir));
  const server = net.createServer((socket) => socket.end());
  try {
    await listen(server, address);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    if (await answers(address)) {
      throw new AppError("DATA_DIR_LOCKED", `Another EasyAgentCU process (a server, or a run or replay) is using ${dataDir}; stop it first, or give this one another --data-dir.`);
    }
    if (process.platform !== "win32") await unlink(address).catch(() => undefined);
    await listen(server, address);
  }
  server.unref();
  return { release: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * A socket in the temporary folder named by a hash of the data dir's real path (on Windows a named
 * pipe): a socket's path is cut at about a hundred bytes, so one inside a long data dir could not
 * be made, or once cut would name another dir's. Two names for one dir (a link) hash alike.
 */
function socketPath(realDir: string): string {
  const name = `easyagentcu-${createHash("sha256").update(realDir).digest("hex").slice(0, 32)}`;
  if (process.platform === "win32") return `\\\\.\\pipe\\${name}`;
  const address = path.join(tmpdir(), `${name}.lock`);
  // The shortest limit of the systems we run on (macOS's 104 bytes, less its closing zero).
  if (Buffer.byteLength(address) > 103) {
    throw new AppError("STORAGE_FAILED", `Cannot hold ${realDir}: the temporary folder's path (${tmpdir()}) is too long for a local socket; set TMPDIR to a shorter one.`);
  }
  return address;
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
