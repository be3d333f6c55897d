// The task's and session's files in the blob store (blobs.ts), keyed as seed 000 §8 lays out the
// data directory: frame images in sessions/{session}/tasks/{task}/frames/0001.jpg (annotated ones
// beside them, plus live.jpg, the task's live frame as it was last kept), long page texts in
// sessions/{session}/tasks/{task}/artifacts/, and attachments in sessions/{session}/attachments/.
// The frames table knows each frame's key and its size. A running task's live frame is served
// from memory (live-frames.ts).
import path from "node:path";
import type { Kysely } from "kysely";
import type { FrameOptions, StepFrame } from "../agent/ports.ts";
import type { Screenshot } from "../perception/screenshot.ts";
import { newId, nowIso } from "../core/ids.ts";
import { decodeDataUrl } from "../core/data-url.ts";
import { AppError } from "../core/errors.ts";
import type { Attachment, ChatMessage, FrameRef, Task } from "../protocol/index.ts";
import type { BlobStore, BlobStream } from "./blobs.ts";
import { LiveFrames, liveFrameId } from "./live-frames.ts";
import type { Database, FramesTable } from "./schema.ts";

export class DataFiles {
  private readonly live = new LiveFrames();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly blobs: BlobStore,
  ) {}

  /**
   * Names a step's frame now and writes it on `save`. Step 3's frame is 0003.jpg; its second
   * pointer check 0003_check2.jpg and 0003_check2_annotated.jpg.
   */
  stepFrame(task: Task, index: number, shot: Screenshot, options: FrameOptions = {}): StepFrame {
    const kind = options.kind ?? "raw";
    const id = newId("frame");
    const check = options.check ? `_check${options.check}` : options.approval ? `_approval_${id}` : "";
    const suffix = kind === "annotated" ? "_annotated" : "";
    const relative = path.posix.join(this.framesDir(task), `${String(index).padStart(4, "0")}${check}${suffix}.${extension(shot)}`);
    const created_at = nowIso();
    return {
      ref: toRef({ id, width: shot.width, height: shot.height, kind, version: 1 }),
      save: async () => {
        await this.blobs.put(relative, shot.data);
        await this.db.insertInto("frames").values({ id, task_id: task.id, step_id: null, path: relative, width: shot.width, height: shot.height, kind, created_at }).execute();
      },
    };
  }

  /** Makes `shot` the task's live frame, in memory only: its ref is good at once. */
  showLiveFrame(task: Task, shot: Screenshot): FrameRef {
    const version = this.live.show(task.id, shot);
    return toRef({ id: liveFrameId(task.id), width: shot.width, height: shot.height, kind: "live", version });
  }

  /**
   * Writes the task's live frame as it is now to live.jpg and the frames table, where a restart
   * finds it. `done`: the task shows no more frames, and the stored one answers for it from now on.
   */
  async keepLiveFrame(task: Task, done = false): Promise<void> {
    const id = liveFrameId(task.id);
    const frame = this.live.get(id);
    try {
      if (!frame) return;
      const { shot, version } = frame;
      const relative = path.posix.join(this.framesDir(task), `live.${extension(shot)}`);
      await this.blobs.put(relative, shot.data);
      const row = { path: relative, width: shot.width, height: shot.height, version };
      await this.db
        .insertInto("frames")
        .values({ id, task_id: task.id, step_id: null, kind: "live", created_at: nowIso(), ...row })
        .onConflict((oc) => oc.column("id").doUpdateSet(row))
        .execute();
    } finally {
      if (done) this.live.forget(task.id);
    }
  }

  /** A text too long to hand around (a page's article text): stored as artifacts/{id}.txt, named by its id. */
  async saveArtifact(task: Task, text: string): Promise<string> {
    const id = newId("art");
    await this.blobs.put(artifactPath(task, id), Buffer.from(text, "utf8"));
    return id;
  }

  /** A task's artifact as it was saved, or null when the task has none of that id. */
  async readArtifact(task: Task, id: string): Promise<string | null> {
    // An id names a file: one that could name another place is no id of ours.
    if (!/^art_[a-z0-9]+$/.test(id)) return null;
    return (await this.blobs.get(artifactPath(task, id)))?.toString("utf8") ?? null;
  }

  /** Keeps attached files beside the session: sessions/{session}/attachments/{message}/{n}-{name}. */
  async saveAttachments(message: ChatMessage, attachments: Attachment[]): Promise<void> {
    for (const [i, attachment] of attachments.entries()) {
      const decoded = decodeDataUrl(attachment.data_url);
      if (!decoded) throw new AppError("INVALID_BODY", `attachments.${i}.data_url: not a valid data: URL`);
      await this.blobs.put(attachmentPath(message, i, attachment.name), decoded.data);
    }
  }

  /** A message's attachments as they were sent; one whose file is gone is left out. */
  async readAttachments(message: ChatMessage): Promise<Attachment[]> {
    const read = await Promise.all(
      message.attachments.map(async ({ name, mime_type }, i) => {
        const data = await this.blobs.get(attachmentPath(message, i, name));
        return data ? [{ name, mime_type, data_url: `data:${mime_type};base64,${data.toString("base64")}` }] : [];
      }),
    );
    return read.flat();
  }

  async linkStep(frameIds: string[], stepId: string): Promise<void> {
    if (frameIds.length === 0) return;
    await this.db.updateTable("frames").set({ step_id: stepId }).where("id", "in", frameIds).execute();
  }

  async ref(id: string | null): Promise<FrameRef | null> {
    if (!id) return null;
    const live = this.live.get(id);
    if (live) return toRef({ id, width: live.shot.width, height: live.shot.height, kind: "live", version: live.version });
    const row = await this.db.selectFrom("frames").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? toRef(row) : null;
  }

  /** The image, streamed, and its type; null when the frame is unknown or its object is gone. */
  async open(id: string): Promise<(BlobStream & { mimeType: string }) | null> {
    const live = this.live.get(id);
    if (live) return { body: new Blob([new Uint8Array(live.shot.data)]).stream(), size: live.shot.data.length, mimeType: live.shot.mimeType };
    const row = await this.db.selectFrom("frames").select(["path"]).where("id", "=", id).executeTakeFirst();
    const image = row && (await this.blobs.stream(row.path));
    return image ? { ...image, mimeType: row.path.endsWith(".png") ? "image/png" : "image/jpeg" } : null;
  }

  /** Everything under sessions/{session}: its frames, artifacts, attachments and received files. */
  async removeSession(sessionId: string): Promise<void> {
    await this.blobs.deleteAll(`sessions/${path.basename(sessionId)}/`);
  }

  private framesDir(task: Task): string {
    return path.posix.join("sessions", task.session_id, "tasks", task.id, "frames");
  }
}

export function toRef(row: Pick<FramesTable, "id" | "width" | "height" | "kind"> & { version: number }): FrameRef {
  const url = row.kind === "live" ? `/api/frames/${row.id}?v=${row.version}` : `/api/frames/${row.id}`;
  return { id: row.id, url, width: row.width, height: row.height };
}

function artifactPath(task: Task, id: string): string {
  return path.posix.join("sessions", task.session_id, "tasks", task.id, "artifacts", `${id}.txt`);
}

function attachmentPath(message: Pick<ChatMessage, "id" | "session_id">, index: number, name: string): string {
  const safeName = path.basename(name).replace(/[^\w.\- ]+/g, "_") || "file";
  return path.posix.join("sessions", message.session_id, "attachments", message.id, `${index + 1}-${safeName}`);
}

function extension(shot: Screenshot): string {
  return shot.mimeType === "image/png" ? "png" : "jpg";
}
