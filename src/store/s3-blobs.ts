// The blob store in an S3-compatible bucket (AWS S3, MinIO, R2, s3rver): each key is an object
// named `{S3_PREFIX}/{key}`. A download lands in a local spool folder first, since Chromium writes
// to disk, and is streamed to the bucket once complete.
import { createReadStream } from "node:fs";
import { rm, stat } from "node:fs/promises";
import path from "node:path";
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { AppError } from "../core/errors.ts";
import type { BlobStore, BlobStream, S3Settings } from "./blobs.ts";
import { checkedKey } from "./blob-keys.ts";

/** S3's most keys in one DeleteObjects request. */
const DELETE_BATCH = 1000;

export class S3Blobs implements BlobStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(
    settings: S3Settings & { bucket: string },
    /** The local folder downloads land in before they go to the bucket. */
    private readonly spool: string,
  ) {
    this.bucket = settings.bucket;
    this.prefix = settings.prefix ? `${settings.prefix}/` : "";
    const credentials = settings.accessKeyId && settings.secretAccessKey ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } : undefined;
    this.client = new S3Client({
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(credentials ? { credentials } : {}),
      // Checksums only where S3 requires them: servers other than AWS's (MinIO, R2, s3rver) do
      // not all read the newer checksum headers and chunked bodies.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      maxAttempts: 3,
    });
  }

  async put(key: string, data: Buffer): Promise<void> {
    await this.send("write", key, () => this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.name(key), Body: data, ContentLength: data.length })));
  }

  landing(key: string): string {
    return path.join(this.spool, checkedKey(key));
  }

  async putFile(key: string, file: string): Promise<void> {
    try {
      const { size } = await stat(file);
      await this.send("write", key, () =>
        this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.name(key), Body: createReadStream(file), ContentLength: size })),
      );
    } finally {
      await rm(file, { force: true });
      // The file's own folder in the spool ({…}/files/{id}/) goes with it.
      if (file.startsWith(this.spool + path.sep)) await rm(path.dirname(file), { recursive: true, force: true });
    }
  }

  async get(key: string): Promise<Buffer | null> {
    const found = await this.stream(key);
    if (!found) return null;
    return Buffer.from(await new Response(found.body).arrayBuffer());
  }

  async stream(key: string): Promise<BlobStream | null> {
    const object = await this.send("read", key, () => this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.name(key) }))).catch((error: unknown) => {
      if (error instanceof AppError && notFound(error.cause)) return null;
      throw error;
    });
    if (!object?.Body) return null;
    return { body: object.Body.transformToWebStream(), size: object.ContentLength ?? null };
  }

  async delete(key: string): Promise<void> {
    await this.send("delete", key, () => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.name(key) })));
  }

  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.send("list", prefix, () =>
        this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix + prefix, ContinuationToken: token })),
      );
      for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key.slice(this.prefix.length));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  }

  async deleteAll(prefix: string): Promise<void> {
    const keys = await this.list(prefix);
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const batch = keys.slice(i, i + DELETE_BATCH).map((key) => ({ Key: this.prefix + key }));
      const result = await this.send("delete", prefix, () => this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch, Quiet: true } })));
      const failed = result.Errors?.[0];
      if (failed) throw new AppError("STORAGE_FAILED", `Could not delete ${failed.Key} from the bucket ${this.bucket} (${failed.Code}: ${failed.Message}); check the S3_* settings' permissions.`, { retryable: true });
    }
  }

  where(key: string): string {
    return `s3://${this.bucket}/${this.name(key)}`;
  }

  async close(): Promise<void> {
    this.client.destroy();
    await rm(this.spool, { recursive: true, force: true });
  }

  private name(key: string): string {
    return this.prefix + checkedKey(key);
  }

  /** One request; what the bucket or the network refuses is STORAGE_FAILED, with what to check. */
  private async send<T>(doing: "write" | "read" | "delete" | "list", key: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (error instanceof AppError) throw error;
      const why = error instanceof S3ServiceException ? `${error.name}, HTTP ${error.$metadata.httpStatusCode ?? "?"}` : error instanceof Error ? error.message : String(error);
      throw new AppError("STORAGE_FAILED", `Could not ${doing} ${key} in the bucket ${this.bucket} (${why}); check S3_BUCKET, S3_ENDPOINT and the S3 keys, and that the bucket is reachable.`, {
        retryable: !(error instanceof S3ServiceException) || (error.$metadata.httpStatusCode ?? 500) >= 500,
        cause: error,
      });
    }
  }
}

function notFound(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.name === "NoSuchKey" || error.$metadata.httpStatusCode === 404);
}
