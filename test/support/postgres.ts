// A real Postgres server for the tests, from Debian's `postgresql` package: a cluster of its own in
// a temp dir, on a free loopback port, with a fresh database per caller. As root (CI), the server
// runs as the package's `postgres` user, since Postgres refuses to run as root.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";

export interface Postgres {
  /** A new, empty database's address. */
  database(): Promise<string>;
  stop(): Promise<void>;
}

const USER = "easyagentcu";
const START_TIMEOUT_MS = 30_000;

export async function startPostgres(): Promise<Postgres> {
  const bin = postgresBin();
  const dir = await mkdtemp(path.join(tmpdir(), "easyagentcu-pg-"));
  const owner = process.getuid?.() === 0 ? postgresUser() : null;
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const asOwner = (command: string, args: string[]): [string, string[]] => (owner ? ["setpriv", ["--reuid", String(owner.uid), "--regid", String(owner.gid), "--clear-groups", command, ...args]] : [command, args]);
  const data = path.join(dir, "data");
  const init = spawnSync(...asOwner(path.join(bin, "initdb"), ["-D", data, "-U", USER, "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync"]), { encoding: "utf8" });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  const server: ChildProcess = spawn(
    ...asOwner(path.join(bin, "postgres"), ["-D", data, "-p", String(port), "-k", dir, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "max_connections=200"]),
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let said = "";
  server.stderr!.on("data", (chunk: Buffer) => (said += chunk.toString()));
  const admin = `postgres://${USER}@127.0.0.1:${port}/postgres`;
  await ready(admin, server, () => said);
  let count = 0;
  return {
    async database() {
      const name = `t${process.pid}_${++count}`;
      const client = new pg.Client(admin);
      await client.connect();
      await client.query(`CREATE DATABASE ${name}`);
      await client.end();
      return `postgres://${USER}@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      if (server.exitCode === null) {
        server.kill("SIGINT");
        await new Promise((resolve) => server.once("exit", resolve));
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The newest installed server's programs. */
function postgresBin(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(path.join(root, v, "bin", "postgres"))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error("No Postgres server here: install Debian's postgresql package (the README's apt-get line has it).");
  return path.join(root, newest, "bin");
}

function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync("/etc/passwd", "utf8").split("\n").find((entry) => entry.startsWith("postgres:"));
  if (!line) throw new Error("Tests run as root need the postgres user that Debian's postgresql package creates.");
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });
}

async function ready(url: string, server: ChildProcess, said: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`Postgres exited: ${said()}`);
    const client = new pg.Client(url);
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) throw new Error(`Postgres did not answer within ${START_TIMEOUT_MS} ms: ${said()}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
