// Tasks on workers, for a test file (issue 38): a Postgres of the file's own beside the scripted
// model and the fixture pages, and the product deployed on a fresh database of it, test by test, as
// `serve` and `worker` processes pointed at the model and allowed the pages; with `s3`, every process
// also keeps its files in one bucket. It starts before the file's tests; after them every process is
// killed (kill -9) and the rest stopped.
import { afterAll, beforeAll } from "vitest";
import type { FixtureServer } from "./fixture-server.ts";
import { startPostgres, type Postgres } from "./postgres.ts";
import { startProductProcess, type ProductProcess } from "./product-process.ts";
import { startS3Server, type S3Server } from "./s3-server.ts";
import type { ScriptedModel } from "./scripted-model.ts";
import { late, useWorld } from "./world.ts";

export interface Workers {
  model: ScriptedModel;
  pages: FixtureServer;
  /** Only when asked for with `s3`: the bucket every process keeps its files in. */
  s3: S3Server;
  /** The product on a fresh database, for one test's processes; `env` goes to each of them (an approval policy, say). */
  deploy(env?: Record<string, string>): Promise<Deployment>;
}

export interface Deployment {
  /** `easyagentcu serve` on a free port, once it says where it runs. */
  serve(): Promise<ProductProcess>;
  /** `easyagentcu worker`, once it says it takes tasks; `slots`: how many it runs at once (the product's default when absent). */
  worker(options?: { slots?: number }): Promise<ProductProcess>;
}

/** Call at the top of a test file, as `useWorld`: the parts exist once `beforeAll` ran. */
export function useWorkers(options: { s3?: boolean } = {}): Workers {
  const { model, pages } = useWorld({ app: false });
  let postgres: Postgres | undefined;
  let s3: S3Server | undefined;
  const running: ProductProcess[] = [];
  beforeAll(async () => {
    [postgres, s3] = await Promise.all([startPostgres(), options.s3 ? startS3Server() : undefined]);
  });
  afterAll(async () => {
    for (const process of running) await process.kill();
    await Promise.all([postgres?.stop(), s3?.stop()]);
  });

  async function deploy(env: Record<string, string> = {}): Promise<Deployment> {
    const settings = {
      ...(s3 ? bucket(s3) : {}),
      ...env,
      DATABASE_URL: await postgres!.database(),
      TASK_QUEUE: "postgres",
      MODEL_BASE_URL: model.baseUrl,
      MODEL_NAME: "scripted-vl",
      LOG_LEVEL: "info",
      ALLOWED_ORIGINS: new URL(pages.url("")).origin,
    };
    const start = async (args: string[], ready: RegExp) => {
      const started = await startProductProcess(args, settings, ready);
      running.push(started);
      return started;
    };
    return {
      serve: () => start(["serve", "--port", "0"], /running at (\S+)/),
      worker: ({ slots } = {}) => start(slots === undefined ? ["worker"] : ["worker", "--slots", String(slots)], /taking tasks/),
    };
  }

  const bucketOf = () => {
    if (!s3) throw new Error("This file's workers keep no bucket: call useWorkers({ s3: true }).");
    return s3;
  };
  return { model, pages, s3: late(bucketOf), deploy };
}

/** The S3_* settings that reach the bucket. */
function bucket({ settings }: S3Server): Record<string, string> {
  return {
    S3_BUCKET: settings.bucket,
    S3_ENDPOINT: settings.endpoint,
    S3_REGION: settings.region,
    S3_ACCESS_KEY_ID: settings.accessKeyId!,
    S3_SECRET_ACCESS_KEY: settings.secretAccessKey!,
    S3_FORCE_PATH_STYLE: "true",
  };
}
