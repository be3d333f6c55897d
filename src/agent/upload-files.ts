// The message's attachments as files a task can upload: each is written, the first time an upload
// names it, into the task's own folder under the data dir (uploads/{task}/{n}/{name}, so that the
// page receives the name the person sent), and the folder goes when the task's run ends (or, after
// a crash, when the server starts again). Only an attachment's name ever comes from the model,
// never a path.
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { UploadFile } from "../computers/computer.ts";
import { decodeDataUrl } from "../core/data-url.ts";
import { AppError } from "../core/errors.ts";
import type { Attachment } from "../protocol/index.ts";

export class UploadFiles {
  private readonly written = new Map<number, Promise<UploadFile>>();

  constructor(
    private readonly attachments: readonly Attachment[],
    /** The task's folder: `{dataDir}/uploads/{task}`. */
    private readonly dir: string,
  ) {}

  static forTask(dataDir: string, taskId: string, attachments: readonly Attachment[]): UploadFiles {
    return new UploadFiles(attachments, path.join(dataDir, "uploads", taskId));
  }

  /**
   * Removes what a process that died left of its tasks' upload files. Called by the server as it
   * starts, holding the data dir: no task of another process can be writing there.
   */
  static async removeLeftovers(dataDir: string): Promise<void> {
    await rm(path.join(dataDir, "uploads"), { recursive: true, force: true });
  }

  /** The file of the attachment called `name` (exactly, else ignoring letter case); ACTION_FAILED for a name the message did not attach. */
  file(name: string): Promise<UploadFile> {
    const exact = this.attachments.findIndex((a) => a.name === name);
    const index = exact >= 0 ? exact : this.attachments.findIndex((a) => a.name.toLowerCase() === name.toLowerCase());
    if (index < 0) return Promise.reject(unknown(name, this.attachments));
    let writing = this.written.get(index);
    if (!writing) {
      writing = this.write(index);
      this.written.set(index, writing);
    }
    return writing;
  }

  /** Removes the task's folder and every file written into it. */
  async remove(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }

  private async write(index: number): Promise<UploadFile> {
    const attachment = this.attachments[index]!;
    const decoded = decodeDataUrl(attachment.data_url);
    if (!decoded) throw new AppError("ACTION_FAILED", `The attachment "${attachment.name}" could not be read; ask the person to attach it again.`);
    const folder = path.join(this.dir, String(index + 1));
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const file = path.join(folder, fileName(attachment.name));
    await writeFile(file, decoded.data, { mode: 0o600 });
    return { name: attachment.name, path: file, mimeType: attachment.mime_type };
  }
}

/** The attachment's own name as a file name: its last part, without control characters. */
function fileName(name: string): string {
  const base = path.basename(name.replace(/\\/g, "/")).replace(/[\x00-\x1f]/g, "_");
  return base === "" || base === "." || base === ".." ? "file" : base;
}

function unknown(name: string, attachments: readonly Attachment[]): AppError {
  if (attachments.length === 0) return new AppError("ACTION_FAILED", `No file is attached to this task, so "${name}" cannot be uploaded; ask the person to attach it to their message.`);
  const names = attachments.map((a) => `"${a.name}"`).join(", ");
  return new AppError("ACTION_FAILED", `No attachment is called "${name}"; the message attached ${names}. Upload one of those by its name.`);
}
