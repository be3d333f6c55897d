// The per-install token: a random secret kept in the data dir, made on first start. Every request
// that changes state carries it (server/auth.ts), so only the UI this server serves — which gets it
// inside its page — and scripts that can read the data dir may change anything. The agent's own
// browser never loads that page: the network fence keeps it off the server.
import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";

const FILE = "install-token";

/** The data dir's token, made (readable by its owner only) when there is none yet. */
export async function installToken(dataDir: string): Promise<string> {
  const file = path.join(dataDir, FILE);
  const made = randomBytes(32).toString("base64url");
  try {
    await writeFile(file, made, { flag: "wx", mode: 0o600 });
    return made;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const kept = (await readFile(file, "utf8")).trim();
  if (kept.length < 32) throw new Error(`${file} does not hold a token; delete it and start again to make a new one.`);
  return kept;
}
