// Files the tasks received (downloads), in the files table, and where each is kept:
// sessions/{session}/tasks/{task}/files/{id}/{name}. A refused one has a row and no file.
import path from "node:path";
import type { Kysely } from "kysely";
import type { ReceivedFile } from "../agent/ports.ts";
import { nowIso } from "../core/ids.ts";
import type { Task, TaskFile } from "../protocol/index.ts";
import { writtenOrder } from "./flavor.ts";
import type { Database } from "./schema.ts";

export class ReceivedFiles {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dataDir: string,
  ) {}

  /** The absolute path a file of the task is written to: its own folder, so that its name stays its own. */
  placeFor(task: Task, id: string, name: string): string {
    return path.join(this.dataDir, "sessions", task.session_id, "tasks", task.id, "files", path.basename(id), path.basename(name));
  }

  async record(task: Task, file: ReceivedFile): Promise<void> {
    const relative = file.path === null ? null : path.relative(this.dataDir, file.path);
    await this.db
      .insertInto("files")
      .values({ id: file.id, task_id: task.id, step: file.step, name: file.name, mime_type: file.mime_type, size: file.size, path: relative, refused: file.refused, created_at: nowIso() })
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

  /** A kept file with the absolute path of its bytes; null when unknown or refused. */
  async find(id: string): Promise<(TaskFile & { path: string }) | null> {
    const row = await this.db.selectFrom("files").select(["id", "name", "mime_type", "size", "step", "path"]).where("id", "=", id).executeTakeFirst();
    if (!row?.path) return null;
    return { ...row, path: path.join(this.dataDir, row.path) };
  }
}
