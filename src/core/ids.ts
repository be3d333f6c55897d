// Ids: sortable by creation time (a millisecond prefix) and unguessable enough for URLs.
import { randomBytes } from "node:crypto";

export function newId(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}${randomBytes(6).toString("hex")}`;
}

export function nowIso(): string {
  return new Date().toISOString();
}

/** Today's date, YYYY-MM-DD, for prompts. */
export function today(): string {
  return nowIso().slice(0, 10);
}
