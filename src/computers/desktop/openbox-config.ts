// The window manager's configuration on a virtual desktop of the server's own: Openbox with a
// root menu (a right click on the desktop) that opens the everyday programs, and the mouse
// bindings of Debian's default configuration that a person (or a model) expects: a click focuses
// and raises, a title bar drags, its buttons close, maximize and iconify. Written into the
// desktop's private directory, never the user's home.
import { writeFile } from "node:fs/promises";
import path from "node:path";

/** The programs of the root menu, in its order: a label and the command it runs. */
export const DESKTOP_MENU: readonly { label: string; command: string }[] = [
  { label: "Terminal", command: "xterm" },
  { label: "Text editor", command: "mousepad" },
  { label: "Files", command: "pcmanfm" },
];

/** Whether a window manager command is Openbox, which takes this configuration. */
export function isOpenbox(windowManager: string): boolean {
  return path.basename(windowManager) === "openbox";
}

/** Writes rc.xml and menu.xml into the directory; returns the arguments that make Openbox read them. */
export async function writeOpenboxConfig(dir: string): Promise<string[]> {
  const rc = path.join(dir, "rc.xml");
  const menu = path.join(dir, "menu.xml");
  await writeFile(menu, menuXml());
  await writeFile(rc, rcXml(menu));
  return ["--config-file", rc];
}

const FOCUS = ["Focus", "Raise"];
/** Context, button, what the button does, and the actions that follow: Openbox's `<mousebind>`s. */
const MOUSE: [context: string, button: string, on: string, actions: string[]][] = [
  ["Client", "Left", "Press", FOCUS],
  ["Client", "Middle", "Press", FOCUS],
  ["Client", "Right", "Press", FOCUS],
  ["Frame", "A-Left", "Press", FOCUS],
  ["Frame", "A-Left", "Drag", ["Move"]],
  ["Titlebar Top Right Bottom Left TLCorner TRCorner BRCorner BLCorner Icon", "Left", "Press", [...FOCUS, "Unshade"]],
  ["Titlebar", "Left", "Drag", ["Move"]],
  ["Titlebar", "Left", "DoubleClick", ["ToggleMaximize"]],
  ["Top Left Right Bottom TLCorner TRCorner BRCorner BLCorner", "Left", "Drag", ["Resize"]],
  ["Close", "Left", "Click", ["Close"]],
  ["Maximize", "Left", "Click", ["ToggleMaximize"]],
  ["Iconify", "Left", "Click", ["Iconify"]],
  ["Root", "Right", "Press", ["ShowMenu:root-menu"]],
  ["Root", "Middle", "Press", ["ShowMenu:client-list-combined-menu"]],
];

function rcXml(menuFile: string): string {
  const action = (name: string) => {
    const [action, menu] = name.split(":");
    return menu ? `<action name="${action}"><menu>${menu}</menu></action>` : `<action name="${action}"/>`;
  };
  const contexts = [...new Set(MOUSE.map(([context]) => context))].map((context) => {
    const binds = MOUSE.filter(([c]) => c === context).map(([, button, on, actions]) => `<mousebind button="${button}" action="${on}">${actions.map(action).join("")}</mousebind>`);
    return `    <context name="${context}">${binds.join("")}</context>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<openbox_config xmlns="http://openbox.org/3.4/rc">
  <focus><focusNew>yes</focusNew><followMouse>no</followMouse></focus>
  <desktops><number>1</number></desktops>
  <mouse>
${contexts.join("\n")}
  </mouse>
  <menu><file>${escapeXml(menuFile)}</file></menu>
</openbox_config>
`;
}

function menuXml(): string {
  const items = DESKTOP_MENU.map(
    ({ label, command }) => `    <item label="${escapeXml(label)}"><action name="Execute"><command>${escapeXml(command)}</command></action></item>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<openbox_menu xmlns="http://openbox.org/3.4/menu">
  <menu id="root-menu" label="Desktop">
${items.join("\n")}
  </menu>
</openbox_menu>
`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
