// A real S3-compatible server for the tests: s3rver (npm, a devDependency) on a free loopback
// port, its objects in a temp dir, with one empty bucket. Its keys are its own fixed pair.
import { createRequire } from "node:module";
import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { S3Settings } from "../../src/store/blobs.ts";

interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: { address: string; port: number; directory: string; silent: boolean; configureBuckets: { name: string }[] }) => S3rverServer;

// s3rver ships CommonJS without types.
const S3rver = createRequire(import.meta.url)("s3rver") as S3rverClass;

export interface S3Server {
  /** The settings that reach the bucket, as S3_* would give them. */
  settings: S3Settings & { bucket: string; endpoint: string };
  /** The folder the server keeps its objects in. */
  directory: string;
  stop(): Promise<void>;
}

export async function startS3Server(bucket = "easyagentcu"): Promise<S3Server> {
  const directory = await mkdtemp(path.join(tmpdir(), "easyagentcu-s3rver-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, directory, silent: true, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  return {
    settings: {
      bucket,
      endpoint: `http://127.0.0.1:${port}`,
      region: "us-east-1",
      accessKeyId: "S3RVER",
      secretAccessKey: "S3RVER",
      prefix: "",
      forcePathStyle: true,
    },
    directory,
    async stop() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
