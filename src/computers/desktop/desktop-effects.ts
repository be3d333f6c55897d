// What an action set off on an X desktop that its screen need not show: a window that opened (one
// that opens minimized, or behind another, too), a window's new title, a new file in the desktop's
// downloads folder. Read through the window manager's client list and the folder, before the
// action and after it.
import { readdir } from "node:fs/promises";
import type { QuietEffect, StructuralEffect } from "../computer.ts";
import type { X11Session } from "./x11-session.ts";

/** The desktop's windows (id → title) and the names in its downloads folder at one moment. */
export interface DesktopState {
  windows: Map<number, string>;
  files: Set<string>;
}

/** `downloads`: the folder the desktop's programs save downloads to; null where none is known. */
export async function desktopState(x: X11Session, downloads: string | null): Promise<DesktopState> {
  const [windows, files] = await Promise.all([windowTitles(x), downloads ? readdir(downloads).catch(() => []) : []]);
  return { windows, files: new Set(files) };
}

/** A window that opened is a new tab's like, a new file a download; a window's new title counts as its content changing. */
export function compareDesktop(before: DesktopState, after: DesktopState): StructuralEffect {
  const quiet: QuietEffect[] = [];
  if ([...after.files].some((name) => !before.files.has(name))) quiet.push("download");
  if ([...after.windows.keys()].some((id) => !before.windows.has(id))) quiet.push("new_tab");
  const retitled = [...after.windows].filter(([id, title]) => before.windows.has(id) && before.windows.get(id) !== title).length;
  return { mutations: retitled, scrolled: false, quiet };
}

/**
 * The windows the window manager manages (EWMH `_NET_CLIENT_LIST`), each with its title; none
 * where no window manager keeps the list. A window that closed while it was read is left out.
 */
async function windowTitles(x: X11Session): Promise<Map<number, string>> {
  const list = await x.property(x.root, "_NET_CLIENT_LIST");
  const ids = list ? Array.from({ length: Math.floor(list.length / 4) }, (_, i) => list.readUInt32LE(i * 4)) : [];
  const titled = await Promise.all(
    ids.map(async (id) => {
      try {
        const title = (await x.property(id, "_NET_WM_NAME")) ?? (await x.property(id, "WM_NAME"));
        return [[id, title?.toString("utf8") ?? ""] as const];
      } catch {
        return [];
      }
    }),
  );
  return new Map(titled.flat());
}
