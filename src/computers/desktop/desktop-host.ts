// Opens the desktop a task drives: the X display the configuration names (a real one, `:0`), or a
// virtual desktop of the task's own — Xvfb, a window manager and everyday programs — that closes
// with the task.
import type { Config } from "../../core/config.ts";
import { DesktopComputer } from "./desktop-computer.ts";
import { VirtualDisplay } from "./virtual-display.ts";

export async function openDesktop(config: Pick<Config, "desktop" | "browser">): Promise<DesktopComputer> {
  const { jpegQuality, liveFps, width, height } = config.browser;
  const { minIntervalMs } = config.desktop;
  if (config.desktop.display) return DesktopComputer.open({ display: config.desktop.display, jpegQuality, liveFps, minIntervalMs });
  const display = await VirtualDisplay.start({ width, height, windowManager: config.desktop.windowManager });
  try {
    const desktop = await DesktopComputer.open({ display: display.name, jpegQuality, liveFps, minIntervalMs, onClose: () => display.close() });
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
