// `easyagentcu run` says where each file the task received was saved, so the person can open it.
import { spawn } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { fixtureOrigins } from "../support/fixture-server.ts";
import { act, planningText } from "../support/scripted-model.ts";
import { useWorld } from "../support/world.ts";

const { model, pages } = useWorld({ app: false });
const INVOICE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/pages/files/invoice-march.pdf");

describe("easyagentcu run, with a download", () => {
  it("prints where the downloaded file was saved, and the bytes there are the page's", { timeout: 40_000 }, async () => {
    model.route((r) => planningText(r).includes("Task: cli invoice"), act("click", { x: 200, y: 120 }, "Downloading the invoice"), act("done", { answer: "Downloaded." }, "Done"));
    const dataDir = await mkdtemp(path.join(tmpdir(), "easyagentcu-cli-"));
    const child = spawn(process.execPath, ["bin/easyagentcu.js", "run", "cli invoice", "--url", pages.url("downloads.html"), "--data-dir", dataDir], {
      env: { ...process.env, MODEL_BASE_URL: model.baseUrl, MODEL_NAME: "scripted-vl", MODEL_BACKOFF_MS: "20", ALLOWED_ORIGINS: fixtureOrigins().join(","), APPROVAL_POLICY: JSON.stringify({ download: "allow" }) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    const lines = out.trim().split("\n");
    // The file's line comes as it arrives: while its step is under way, before or after the step's line.
    const files = lines.filter((line) => line.startsWith("↓"));
    expect(lines.filter((line) => !line.startsWith("↓"))).toEqual(["▶ cli invoice", "  1. Downloading the invoice", "  2. Done", "✓ Downloaded.", expect.stringMatching(/^  2 steps · /)]);
    expect(files).toEqual([expect.stringMatching(/^↓ invoice-march\.pdf saved to \//)]);
    expect(code).toBe(0);
    const saved = files[0]!.replace(/^↓ invoice-march\.pdf saved to /, "");
    expect(saved.startsWith(dataDir)).toBe(true);
    expect((await readFile(saved)).equals(await readFile(INVOICE))).toBe(true);
  });
});
