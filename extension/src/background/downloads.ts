// The downloads the task tabs start, through `chrome.downloads`: one is the task's when its tab's
// debugger announced it (Page.downloadWillBegin, the same address) — chrome.downloads alone does
// not say which tab started a download, and the person's own downloads are nobody's business.
// The server hears it begin (`download_began`) and asks for its bytes (`download_fetch`), sent in
// chunks once Chrome has it all. An extension cannot read the file Chrome wrote, so the bytes are
// read again from the download's address: the worker's fetch, with the person's cookies, or for a
// `blob:` address (made by the page) the page's own fetch through the debugger. A download a
// form's POST started is read again by GET, which the site may answer differently.
import { DOWNLOAD_CHUNK_BYTES, type ExtensionMessage, type ServerMessage } from "../../../src/protocol/extension.ts";
import { errorMessage } from "./action-error.ts";
import * as cdp from "./debugger.ts";
import { tasks } from "./tasks.ts";

type Send = (message: ExtensionMessage) => void;
type Fetch = Extract<ServerMessage, { type: "download_fetch" }>;
type Item = chrome.downloads.DownloadItem;

/** How long an announcement of a tab's debugger and Chrome's new download wait for each other. */
const MATCH_MS = 10_000;
/** chrome.downloads.onChanged does not report the bytes received: a download in progress is measured this often against its cap. */
const MEASURE_MS = 200;

interface Announced {
  taskId: string;
  tabId: number;
  url: string;
  name: string;
  at: number;
}

/** A download of a task's tab. */
interface Owned {
  taskId: string;
  tabId: number;
  url: string;
}

const announced: Announced[] = [];
const unclaimed = new Map<number, { item: Item; at: number }>();
const owned = new Map<number, Owned>();

/** Listens to the task tabs' debuggers and to Chrome's downloads; call once, at the worker's top. */
export function watchDownloads(send: Send): void {
  chrome.debugger.onEvent.addListener((source, method, params) => {
    if (method !== "Page.downloadWillBegin" || source.tabId === undefined) return;
    const taskId = tasks.taskOfTab(source.tabId);
    if (!taskId) return;
    const { url, suggestedFilename } = params as { url: string; suggestedFilename: string };
    const announcement = { taskId, tabId: source.tabId, url, name: suggestedFilename, at: Date.now() };
    const item = [...unclaimed.values()].find(({ item }) => addressOf(item) === url || item.url === url)?.item;
    if (item) claim(item, announcement, send);
    else announced.push(announcement);
  });
  chrome.downloads.onCreated.addListener((item) => {
    prune();
    const index = announced.findIndex((a) => a.url === item.url || a.url === addressOf(item));
    if (index < 0) return void unclaimed.set(item.id, { item, at: Date.now() });
    const [announcement] = announced.splice(index, 1);
    claim(item, announcement!, send);
  });
}

/** Sends the bytes of a download of the task's tab once it is complete; cancels one that grows past the cap. */
export async function fetchDownload(request: Fetch, send: Send): Promise<void> {
  const { taskId, downloadId, maxBytes } = request;
  const end = (outcome: "kept" | "too_large" | "failed", size: number, reason?: string) =>
    send({ type: "download_end", taskId, downloadId, outcome, size, ...(reason ? { reason: reason.slice(0, 500) } : {}) });
  const own = owned.get(downloadId);
  if (!own || own.taskId !== taskId) return end("failed", 0, "the extension no longer knows this download (its worker restarted)");
  try {
    const done = await completion(downloadId, maxBytes);
    if (done.type !== "complete") return end(done.type, done.size, done.reason);
    let size = 0;
    for await (const chunk of bytesOf(own, done.url)) {
      size += chunk.length;
      if (size > maxBytes) return end("too_large", size);
      send({ type: "download_data", taskId, downloadId, chunk: base64(chunk) });
    }
    end("kept", size);
  } catch (err) {
    end("failed", 0, errorMessage(err));
  } finally {
    owned.delete(downloadId);
  }
}

function claim(item: Item, announcement: Announced, send: Send): void {
  unclaimed.delete(item.id);
  owned.set(item.id, { taskId: announcement.taskId, tabId: announcement.tabId, url: addressOf(item) });
  send({ type: "download_began", taskId: announcement.taskId, downloadId: item.id, name: announcement.name, totalBytes: item.totalBytes > 0 ? item.totalBytes : null });
}

function prune(): void {
  const old = Date.now() - MATCH_MS;
  for (let i = announced.length - 1; i >= 0; i--) if (announced[i]!.at < old) announced.splice(i, 1);
  for (const [id, { at }] of unclaimed) if (at < old) unclaimed.delete(id);
}

function addressOf(item: Item): string {
  return item.finalUrl || item.url;
}

type Completion = { type: "complete"; url: string } | { type: "too_large" | "failed"; size: number; reason?: string };

/** Waits until Chrome has the whole download; one that is or grows larger than `maxBytes` is cancelled. */
async function completion(downloadId: number, maxBytes: number): Promise<Completion> {
  for (;;) {
    const [item] = await chrome.downloads.search({ id: downloadId });
    if (!item) return { type: "failed", size: 0, reason: "it was removed from the browser's downloads" };
    const size = Math.max(item.bytesReceived, item.totalBytes, item.fileSize);
    if (size > maxBytes) {
      if (item.state === "in_progress") await chrome.downloads.cancel(downloadId).catch(() => undefined);
      return { type: "too_large", size };
    }
    if (item.state === "complete") return { type: "complete", url: addressOf(item) };
    if (item.state === "interrupted") return { type: "failed", size: 0, reason: `the browser stopped it (${item.error ?? "interrupted"})` };
    await new Promise((resolve) => setTimeout(resolve, MEASURE_MS));
  }
}

/** The download's bytes, read again from its address, in chunks of at most DOWNLOAD_CHUNK_BYTES. */
async function* bytesOf(own: Owned, url: string): AsyncGenerator<Uint8Array> {
  if (url.startsWith("blob:")) {
    const whole = await pageBytes(own.tabId, url);
    for (let at = 0; at < whole.length; at += DOWNLOAD_CHUNK_BYTES) yield whole.subarray(at, at + DOWNLOAD_CHUNK_BYTES);
    return;
  }
  const response = await fetch(url, { credentials: "include" });
  if (!response.ok || !response.body) throw new Error(`the site answered ${response.status} when its bytes were read again`);
  const reader = response.body.getReader();
  let pending: Uint8Array = new Uint8Array(0);
  for (;;) {
    const { done, value } = await reader.read();
    if (value) pending = joined(pending, value);
    while (pending.length >= DOWNLOAD_CHUNK_BYTES || (done && pending.length > 0)) {
      yield pending.subarray(0, DOWNLOAD_CHUNK_BYTES);
      pending = pending.subarray(DOWNLOAD_CHUNK_BYTES);
    }
    if (done) return;
  }
}

/** A `blob:` address lives in the page that made it: the page reads it, through the debugger, as base64. */
async function pageBytes(tabId: number, url: string): Promise<Uint8Array> {
  const expression = `(async () => {
    const bytes = new Uint8Array(await (await fetch(${JSON.stringify(url)})).arrayBuffer());
    let text = "";
    for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(text);
  })()`;
  const answer = await cdp.send<{ result: { value?: string }; exceptionDetails?: { text: string } }>(tabId, "Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true });
  if (answer.exceptionDetails || typeof answer.result.value !== "string") throw new Error(`the page could not read ${url} again: ${answer.exceptionDetails?.text ?? "no bytes"}`);
  return Uint8Array.from(atob(answer.result.value), (c) => c.charCodeAt(0));
}

function joined(a: Uint8Array, b: Uint8Array): Uint8Array {
  const both = new Uint8Array(a.length + b.length);
  both.set(a);
  both.set(b, a.length);
  return both;
}

function base64(bytes: Uint8Array): string {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}
