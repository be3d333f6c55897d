// The artifact service (seed 004 §1 ArtifactService): the large payloads of the extension's
// actions — screenshots, a page's HTML, long reader text — uploaded over HTTP rather than the
// socket, then fetched by id. Held in memory for a while, each within a size limit and all within
// a total, the oldest dropped first.
import { newId } from "../../core/ids.ts";
import { AppError } from "../../core/errors.ts";
import { ARTIFACT_MAX_BYTES } from "../../protocol/index.ts";

export interface Artifact {
  id: string;
  mimeType: string;
  data: Buffer;
  at: number;
}

const TOTAL_MAX_BYTES = 128 * 1024 * 1024;
const KEEP_MS = 30 * 60_000;

export class ArtifactService {
  private readonly items = new Map<string, Artifact>();
  private total = 0;

  put(data: Buffer, mimeType: string): string {
    if (data.length > ARTIFACT_MAX_BYTES) throw new AppError("INVALID_BODY", `An artifact may be at most ${ARTIFACT_MAX_BYTES} bytes; this one is ${data.length}.`);
    this.expire(Date.now());
    const id = newId("art");
    this.items.set(id, { id, mimeType, data, at: Date.now() });
    this.total += data.length;
    for (const [oldest, item] of this.items) {
      if (this.total <= TOTAL_MAX_BYTES) break;
      this.drop(oldest, item);
    }
    return id;
  }

  get(id: string): Artifact | null {
    this.expire(Date.now());
    return this.items.get(id) ?? null;
  }

  private expire(now: number): void {
    for (const [id, item] of this.items) {
      if (now - item.at < KEEP_MS) break;
      this.drop(id, item);
    }
  }

  private drop(id: string, item: Artifact): void {
    this.items.delete(id);
    this.total -= item.data.length;
  }
}
