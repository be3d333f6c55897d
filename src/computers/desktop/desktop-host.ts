// Opens the desktop a task drives. On Windows and macOS, the machine's own screen through nut-js.
// Elsewhere, the X display the configuration names (a real one, `:0`), or a virtual desktop of the
// task's own — Xvfb, a window manager and everyday programs — that closes with the task.
import type { Config } from "../../core/config.ts";
import type { Computer } from "../computer.ts";
import { DesktopComputer } from "./desktop-computer.ts";
import { NativeComputer } from "./native/native-computer.ts";
import { VirtualDisplay } from "./virtual-display.ts";

export async function openDesktop(config: Pick<Config, "desktop" | "browser" | "som">, platform: NodeJS.Platform = process.platform): Promise<Computer> {
  const { jpegQuality, liveFps, width, height } = config.browser;
  const { minIntervalMs } = config.desktop;
  if (platform === "win32" || platform === "darwin") return NativeComputer.open({ jpegQuality, liveFps, minIntervalMs }, platform);
  if (config.desktop.display) return DesktopComputer.open({ display: config.desktop.display, jpegQuality, liveFps, minIntervalMs, som: config.som });
  const display = await VirtualDisplay.start({ width, height, windowManager: config.desktop.windowManager });
  try {
    const desktop = await DesktopComputer.open({ display: display.name, jpegQuality, liveFps, minIntervalMs, som: config.som, onClose: () => display.close() });
    for (const app of config.desktop.apps) {
      const [command, ...args] = app.split(/\s+/);
      display.run(command!, args);
    }
    return desktop;
  } catch (error) {
    await display.close();
    throw error;
  }
}
