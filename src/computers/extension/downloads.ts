// The downloads of a task's tab in the person's Chrome, as the extension reports them
// (extension/src/background/downloads.ts): each is offered to the task as it begins (computer.ts
// IncomingFile); saving it asks the extension for its bytes, which are written to the target as
// they come, in order, over the extension's WebSocket.
import { open, rm } from "node:fs/promises";
import type { ExtensionMessage } from "../../protocol/index.ts";
import type { IncomingFile, SavedFile } from "../computer.ts";
import type { ExtensionConnection } from "./connection.ts";

export type DownloadMessage = Extract<ExtensionMessage, { type: "download_began" | "download_data" | "download_end" }>;
type DownloadEnd = Extract<ExtensionMessage, { type: "download_end" }>;

/** A download whose bytes are coming: where they go, and how it ends. */
interface Saving {
  write(bytes: Buffer): void;
  end(message: DownloadEnd): void;
}

export class ExtensionDownloads {
  private readonly listeners = new Set<(file: IncomingFile) => void>();
  private readonly saving = new Map<number, Saving>();

  constructor(
    private readonly taskId: string,
    /** The task's extension now (it may have connected again since the download began). */
    private readonly connection: () => ExtensionConnection,
  ) {}

  /** `listener` hears every download that begins from now on; returns a function that stops. */
  receive(listener: (file: IncomingFile) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** A message of the task's own extension about one of its tab's downloads. */
  hear(message: DownloadMessage): void {
    switch (message.type) {
      case "download_began": {
        const file: IncomingFile = { name: message.name, saveAs: (target, maxBytes) => this.save(message.downloadId, target, maxBytes) };
        for (const listener of this.listeners) listener(file);
        return;
      }
      case "download_data":
        return this.saving.get(message.downloadId)?.write(Buffer.from(message.chunk, "base64"));
      case "download_end":
        return this.saving.get(message.downloadId)?.end(message);
    }
  }

  private async save(downloadId: number, target: string, maxBytes: number): Promise<SavedFile> {
    const handle = await open(target, "w");
    let written: Promise<void> = Promise.resolve();
    let size = 0;
    let stopWaiting: () => void = () => undefined;
    let end: DownloadEnd;
    try {
      end = await new Promise<DownloadEnd>((resolve) => {
        this.saving.set(downloadId, {
          write: (bytes) => {
            size += bytes.length;
            written = written.then(async () => void (await handle.write(bytes)));
          },
          end: resolve,
        });
        const connection = this.connection();
        stopWaiting = connection.onClose(() =>
          resolve({ type: "download_end", taskId: this.taskId, downloadId, outcome: "failed", size, reason: "the extension disconnected before all its bytes came" }),
        );
        connection.send({ type: "download_fetch", taskId: this.taskId, downloadId, maxBytes });
      });
      await written;
    } finally {
      this.saving.delete(downloadId);
      stopWaiting();
      await handle.close();
    }
    const saved = outcome(end, size, maxBytes);
    if (saved.type !== "kept") await rm(target, { force: true });
    return saved;
  }
}

/** How the download ended, checked against the bytes that came. */
function outcome(end: DownloadEnd, size: number, maxBytes: number): SavedFile {
  switch (end.outcome) {
    case "kept":
      if (size > maxBytes) return { type: "too_large", size };
      if (size !== end.size) return { type: "failed", reason: `${size} of its ${end.size} bytes came from the extension` };
      return { type: "kept", size };
    case "too_large":
      return { type: "too_large", size: end.size };
    case "failed":
      return { type: "failed", reason: end.reason ?? "the extension could not read it" };
  }
}
