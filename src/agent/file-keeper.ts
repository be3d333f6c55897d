// Keeps the files a task's computer receives (computer.ts IncomingFile): each is saved with the
// task under its safe name, typed from its bytes, capped at DOWNLOAD_MAX_BYTES, recorded, and
// announced (`task.file`); the driver tells the model at its next step. The run waits for files
// still arriving before it closes the computer, which would take them with it.
import { mkdir, open, rm } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import type { Computer, IncomingFile, SavedFile } from "../computers/computer.ts";
import { safeFileName } from "../core/file-name.ts";
import { newId } from "../core/ids.ts";
import { SNIFF_BYTES, sniffMimeType } from "../core/sniff.ts";
import type { ReceivedFile } from "./ports.ts";
import type { TaskRecord } from "./task-record.ts";

/**
 * How long a driver waits for files arriving before it asks the model again: a document comes in
 * a moment, and the model then knows it has it; a large one is told when it comes.
 */
export const DOWNLOAD_WAIT_MS = 5_000;

/** How a file the task received is told to the model. */
export type FileNews = Pick<ReceivedFile, "name" | "size" | "mime_type" | "refused">;

export class FileKeeper {
  private readonly arriving = new Set<Promise<void>>();
  private news: FileNews[] = [];
  private readonly stop: () => void;

  constructor(
    computer: Computer,
    private readonly record: TaskRecord,
    /** The step under way: the one a file that begins now belongs to. */
    private readonly step: () => number,
    private readonly maxBytes: number,
    private readonly log: Logger,
  ) {
    this.stop = computer.receiveFiles?.((file) => this.receive(file)) ?? (() => undefined);
  }

  /** The files that arrived (or were refused) since the last call, for the model's next input. */
  take(): FileNews[] {
    const news = this.news;
    this.news = [];
    return news;
  }

  /** Waits for the files arriving now, at most `ms`. */
  async settle(ms: number): Promise<void> {
    if (this.arriving.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    await Promise.race([Promise.all(this.arriving), late]);
    clearTimeout(timer);
  }

  /** Waits for the files still arriving, at most `ms`; then hears no more. */
  async close(ms: number): Promise<void> {
    await this.settle(ms);
    this.stop();
  }

  private receive(file: IncomingFile): void {
    const keeping = this.keep(file)
      .catch((error: unknown) => this.log.warn({ err: error }, "could not keep a file the task received"))
      .finally(() => this.arriving.delete(keeping));
    this.arriving.add(keeping);
  }

  private async keep(file: IncomingFile): Promise<void> {
    const task = this.record.current;
    const id = newId("file");
    const name = safeFileName(file.name);
    const step = this.step();
    const target = this.record.recorder.receivedFilePath(task, id, name);
    await mkdir(path.dirname(target), { recursive: true });
    const saved = await file.saveAs(target, this.maxBytes);
    const kept = saved.type === "kept";
    if (!kept) await rm(path.dirname(target), { recursive: true, force: true });
    const received: ReceivedFile = {
      id,
      name,
      step,
      size: saved.type === "failed" ? 0 : saved.size,
      mime_type: kept ? sniffMimeType(await head(target)) : "application/octet-stream",
      path: kept ? target : null,
      refused: refusal(saved, this.maxBytes),
    };
    await this.record.recorder.saveReceivedFile(task, received);
    const { refused } = received;
    await this.record.emit({ type: "task.file", task_id: task.id, file: { id, name, mime_type: received.mime_type, size: received.size, step }, refused });
    this.news.push({ name, size: received.size, mime_type: received.mime_type, refused });
  }
}

/** How a received file is told to the model, one sentence: `Received the file report.pdf (1.2 KB, application/pdf); …`. */
export function describeFile(file: FileNews): string {
  if (file.refused) return `The file ${file.name} was not kept: ${file.refused}.`;
  return `Received the file ${file.name} (${sizeText(file.size)}, ${file.mime_type}); it is kept for the person.`;
}

function refusal(saved: SavedFile, maxBytes: number): string | null {
  switch (saved.type) {
    case "kept":
      return null;
    case "too_large":
      return `it is larger than DOWNLOAD_MAX_BYTES (${sizeText(maxBytes)}); the download was cancelled`;
    case "failed":
      return `the download failed (${saved.reason})`;
  }
}

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The first bytes of a file, enough to tell its type. */
async function head(file: string): Promise<Uint8Array> {
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
