// Opens the desktop a task drives. On Windows and macOS, the machine's own screen through nut-js.
// Elsewhere, the X display the configuration names (a real one, `:0`), or a virtual desktop of the
// task's own — Xvfb, a window manager and everyday programs — that closes with the task, its
// programs behind the desktop fence where the machine allows it, their way out the network fence,
// the files it uploads copied where they can read them.
import { mkdtemp, rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import type { Config } from "../../core/config.ts";
import type { NetworkPolicy } from "../../core/network-policy.ts";
import { Fence } from "../browser/fence.ts";
import type { Computer } from "../computer.ts";
import { DesktopComputer } from "./desktop-computer.ts";
import { prepareDesktopFence, type DesktopFence } from "./desktop-fence.ts";
import { NativeComputer } from "./native/native-computer.ts";
import { UploadFolder } from "./upload-folder.ts";
import { VirtualDisplay } from "./virtual-display.ts";

/**
 * Whether the desktops this configuration opens are fenced, or why not: only a virtual desktop of
 * the server's own can be; the person's own screen and display run their programs as the person.
 */
export function desktopFence(config: Pick<Config, "desktop">, platform: NodeJS.Platform = process.platform): Promise<DesktopFence> {
  if (platform === "win32" || platform === "darwin") return Promise.resolve({ fenced: false, why: "the desktop is the machine's own screen, whose programs run as the person" });
  if (config.desktop.display) return Promise.resolve({ fenced: false, why: `DESKTOP_DISPLAY names a display of the person's own (${config.desktop.display}), whose programs run as the person` });
  return prepareDesktopFence(platform);
}

/** `network`: the policy the network fence judges a fenced desktop's connections by, as it judges the browser's. */
export async function openDesktop(config: Pick<Config, "desktop" | "browser" | "som">, fence: DesktopFence, network: () => NetworkPolicy, platform: NodeJS.Platform = process.platform): Promise<Computer> {
  const { jpegQuality, liveFps, width, height } = config.browser;
  const { minIntervalMs } = config.desktop;
  if (platform === "win32" || platform === "darwin") return NativeComputer.open({ jpegQuality, liveFps, minIntervalMs }, platform);
  if (config.desktop.display) {
    return DesktopComputer.open({ display: config.desktop.display, jpegQuality, liveFps, minIntervalMs, som: config.som, fenced: false, downloads: path.join(homedir(), "Downloads") });
  }
  const proxy = fence.fenced ? await startProxy(network) : null;
  const display = await VirtualDisplay.start({ width, height, windowManager: config.desktop.windowManager, ...(fence.fenced ? { fence: { user: fence, proxySocket: proxy!.socket } } : {}) }).catch(async (error: unknown) => {
    await proxy?.close();
    throw error;
  });
  const uploads = await UploadFolder.make(fence.fenced ? fence : null).catch(async (error: unknown) => {
    await display.close();
    await proxy?.close();
    throw error;
  });
  const close = async () => {
    await display.close();
    await uploads.remove();
    await proxy?.close();
  };
  try {
    const desktop = await DesktopComputer.open({ display: display.name, jpegQuality, liveFps, minIntervalMs, som: config.som, fenced: fence.fenced, onClose: close, downloads: display.downloads, uploads, keepDownloads: true });
    for (const app of config.desktop.apps) {
      const [command, ...args] = app.split(/\s+/);
      display.run(command!, args);
    }
    return desktop;
  } catch (error) {
    await close();
    throw error;
  }
}

/** A network fence of the desktop's own, taking connections on a Unix socket in a folder that is the server's user's alone. */
async function startProxy(network: () => NetworkPolicy): Promise<{ socket: string; close(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), "easyagentcu-fence-"));
  const fence = await Fence.start(network);
  const close = async () => {
    await fence.close();
    await rm(dir, { recursive: true, force: true });
  };
  const socket = path.join(dir, "proxy.sock");
  await fence.listenAt(socket).catch(async (error: unknown) => {
    await close();
    throw error;
  });
  return { socket, close };
}
