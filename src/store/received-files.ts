// Files the tasks received (downloads), in the files table, and their bytes in the blob store under
// sessions/{session}/tasks/{task}/files/{id}/{name}. A refused one has a row and no object.
import path from "node:path";
import type { Kysely } from "kysely";
import type { ReceivedFile } from "../agent/ports.ts";
import { nowIso } from "../core/ids.ts";
import type { Task, TaskFile } from "../protocol/index.ts";
import type { BlobStore, BlobStream } from "./blobs.ts";
import { writtenOrder } from "./flavor.ts";
import type { Database } from "./schema.ts";

export class ReceivedFiles {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly blobs: BlobStore,
  ) {}

  /**
   * The absolute local path a file of the task is written to as it arrives: in its own folder, so
   * that its name stays its own. On disk that is where it is kept; a bucket takes it in on `record`.
   */
  placeFor(task: Task, id: string, name: string): string {
    return this.blobs.landing(keyOf(task, id, name));
  }

  /** Records the file; a kept one's bytes go from where they landed into the blob store first. */
  async record(task: Task, file: ReceivedFile): Promise<void> {
    const key = file.path === null ? null : keyOf(task, file.id, file.name);
    if (key !== null && file.path !== null) await this.blobs.putFile(key, file.path);
    await this.db
      .insertInto("files")
      .values({ id: file.id, task_id: task.id, step: file.step, name: file.name, mime_type: file.mime_type, size: file.size, path: key, refused: file.refused, created_at: nowIso() })
      .execute();
  }

  /** The task's kept files, in the order they came. */
  async list(taskId: string): Promise<TaskFile[]> {
    return this.db
      .selectFrom("files")
      .select(["id", "name", "mime_type", "size", "step"])
      .where("task_id", "=", taskId)
      .where("path", "is not", null)
      .orderBy(writtenOrder(this.db))
      .execute();
  }

  /** A kept file with where a person finds its bytes (a path, or an s3:// address); null when unknown or refused. */
  async find(id: string): Promise<(TaskFile & { path: string }) | null> {
    const row = await this.row(id);
    return row ? { ...row, path: this.blobs.where(row.key) } : null;
  }

  /** A kept file with its bytes, streamed; null when unknown, refused, or its object is gone. */
  async open(id: string): Promise<(TaskFile & { body: BlobStream["body"] }) | null> {
    const row = await this.row(id);
    if (!row) return null;
    const { key, ...file } = row;
    const bytes = await this.blobs.stream(key);
    // Its size is the one kept with it, whatever the store says of the object.
    return bytes ? { ...file, body: bytes.body } : null;
  }

  private async row(id: string): Promise<(TaskFile & { key: string }) | null> {
    const row = await this.db.selectFrom("files").select(["id", "name", "mime_type", "size", "step", "path"]).where("id", "=", id).executeTakeFirst();
    if (!row?.path) return null;
    const { path: key, ...file } = row;
    return { ...file, key };
  }
}

function keyOf(task: Task, id: string, name: string): string {
  return path.posix.join("sessions", task.session_id, "tasks", task.id, "files", path.basename(id), path.basename(name));
}
