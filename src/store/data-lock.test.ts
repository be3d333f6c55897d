// A data dir is held by one process whatever the length of its path: a long one can be locked, and
// locking it holds neither a shorter one nor one that shares a long beginning with it.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockDataDir } from "./data-lock.ts";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "easyagentcu-lock-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** A path under the test's folder exactly `length` characters long, ending in `tail`: folders of 99 characters. */
function dirOf(length: number, tail = ""): string {
  const rest = Array.from({ length: length - root.length - 1 - tail.length }, (_, i) => (i % 100 === 99 ? "/" : "d"));
  rest[rest.length - 1] = "d";
  const dir = `${root}/${rest.join("")}${tail}`;
  expect(dir).toHaveLength(length);
  return dir;
}

describe("the data-dir lock", () => {
  it.each([107, 300])("holds a data dir of %i characters against a second process, until released", async (length) => {
    const dir = dirOf(length);
    const lock = await lockDataDir(dir);
    await expect(lockDataDir(dir)).rejects.toMatchObject({ code: "DATA_DIR_LOCKED" });
    await lock.release();
    await (await lockDataDir(dir)).release();
  });

  it("holds only its own dir, however long the beginning it shares with another", async () => {
    const [one, other] = [dirOf(300, "-one"), dirOf(300, "-two")];
    const locks = [await lockDataDir(one), await lockDataDir(other)];
    await expect(lockDataDir(one)).rejects.toMatchObject({ code: "DATA_DIR_LOCKED" });
    await Promise.all(locks.map((lock) => lock.release()));
  });
});
