// What an action amounts to for the approval policy, found before it runs: from its kind (a hotkey
// that closes, quits or locks), its target element (a submit button, a "Pay" or "Delete" control,
// a password field; on a desktop, the caption its pixels show) and the address it opens. An origin
// the task has not been on yet is a new one.
import type { Computer, ElementQuery, NetworkGate, Risk } from "../computers/computer.ts";
import { originOf, PRESS_WORDS, pressRisks } from "../core/approval-policy.ts";
import { normalizeChord } from "../protocol/keys.ts";
import { inDomains } from "../core/network-policy.ts";
import type { Secrets } from "../core/secrets.ts";
import type { ScreenAction } from "../perception/resolve.ts";
import { uploadPoint } from "../protocol/index.ts";

/** Where a page deed acts, so that it is classified like the screen action it stands for; `text`: what it types. */
export type DeedTarget = { element: ElementQuery; how: "click" | "enter" | "type"; text?: string };

/** The classes a control's caption can put a click in. */
const PRESS_CLASSES = Object.keys(PRESS_WORDS) as (keyof typeof PRESS_WORDS)[];

/** Chords that close, quit, lock, log out or delete for good, written with canonical key names. */
const RISKY_CHORDS: Record<string, string> = {
  "Alt+F4": "closes the window",
  "Control+w": "closes the tab or window",
  "Control+q": "quits the application",
  "Meta+q": "quits the application",
  "Meta+w": "closes the window",
  "Control+Alt+Delete": "opens the system's security screen",
  "Control+Alt+Backspace": "ends the desktop session",
  "Meta+l": "locks the screen",
  "Control+Alt+l": "locks the screen",
  "Shift+Delete": "deletes for good",
  "Control+Shift+Delete": "clears browsing data",
  "Meta+Backspace": "deletes for good",
};

/** A risky hotkey, whatever the order and case its keys were written in. */
export function hotkeyRisk(keys: string[]): Risk | null {
  const chord = normalizeChord(keys);
  const key = (k: string) => (k.length === 1 ? k.toLowerCase() : k);
  const written = new Set(chord.map(key));
  for (const [combo, message] of Object.entries(RISKY_CHORDS)) {
    const parts = combo.split("+");
    if (parts.length === written.size && parts.every((p) => written.has(key(p)))) return { kind: "hotkey", message: `presses ${combo}, which ${message}` };
  }
  return null;
}

function pressesEnter(keys: string[]): boolean {
  const last = normalizeChord(keys).at(-1);
  return last === "Enter" || last === "NumpadEnter";
}

/**
 * The risks of a screen action, or of a page deed on `target`; [] when there are none. `asks`:
 * whether the policy may stop a class (asks or denies), so that what costs a reading of the screen
 * is only looked for when it matters.
 */
export async function risksOfDeed(computer: Computer, action: ScreenAction | null, target: DeedTarget | null, asks: (kind: Risk["kind"]) => boolean = () => true): Promise<Risk[]> {
  const web = computer.web;
  if (!action) return target && web ? web.risksOf(target.element, target.how) : [];
  switch (action.type) {
    case "click":
    case "double_click":
    case "triple_click":
      if (web) return web.risksOf({ x: action.args.x, y: action.args.y }, "click");
      // Without a page's structure, what the click presses is known by the caption the screen shows
      // there; when it cannot be read, the person is asked as for the first class the policy asks about.
      if (!computer.labelAt || !PRESS_CLASSES.some(asks)) return [];
      try {
        return pressRisks((await computer.labelAt(action.args.x, action.args.y)) ?? "");
      } catch {
        return [{ kind: PRESS_CLASSES.find(asks)!, message: "presses a control whose caption could not be read" }];
      }
    case "type": {
      if (!web) return terminalRisks(computer);
      const typed = await web.risksOf("focused", "type");
      return /[\r\n]/.test(action.args.text) ? [...typed, ...(await web.risksOf("focused", "enter"))] : typed;
    }
    case "keypress":
    case "hold_key": {
      const hotkey = hotkeyRisk(action.args.keys);
      const enter = web && pressesEnter(action.args.keys) ? await web.risksOf("focused", "enter") : await terminalRisks(computer);
      return hotkey ? [hotkey, ...enter] : enter;
    }
    case "navigate":
      return web ? web.risksOfUrl(action.args.url) : [];
    case "upload":
      return [await uploadRisk(computer, action)];
    default:
      return [];
  }
}

/**
 * What an upload gives away, and to whom: the file, to the origin of the page (or of the frame
 * inside it) that holds the file input, or to the desktop program whose file dialog is open.
 */
async function uploadRisk(computer: Computer, action: Extract<ScreenAction, { type: "upload" }>): Promise<Risk> {
  const file = `the file "${action.args.name}"`;
  const at = uploadPoint(action);
  if (!computer.web) {
    const window = await computer.activeWindow?.().catch(() => null);
    return { kind: "upload", message: `gives ${file} to ${window?.title ? `the window "${window.title}"` : "the open file dialog"}` };
  }
  const frame = at ? await computer.web.frameOf(at) : null;
  const origin = frame?.origin ?? originOf((await computer.currentUrl()) ?? "");
  const into = at ? "the file input" : "the file chooser open";
  return { kind: "upload", message: `puts ${file} into ${into} on ${origin ?? "this page"}, which receives it`, ...(origin ? { origin } : {}) };
}

/** Window classes of terminals (`XTerm`, `Gnome-terminal`, `URxvt`, `kitty`). */
const TERMINAL_CLASS = /term|konsole|kitty|alacritty|tilix|rxvt|^foot|^st(-256color)?$|guake|yakuake|tilda/i;
/** Titles of terminals where the window names no class (the machine's own screen): `Command Prompt`, `Windows PowerShell`, `… — bash — 80×24`. */
const TERMINAL_TITLE = /\bterminal\b|iterm|command prompt|powershell|cmd\.exe|\b(ba|z|fi)?sh\b.*\d+\s*[×x]\s*\d+/i;

/**
 * `keyboard_input` that no policy allows blindly, for keys that go to a terminal on a desktop
 * whose programs are not fenced (desktop-fence.ts): its shell runs as the server's user, with the
 * server's API, install token and chats in reach. A fenced desktop's terminal is judged as any window.
 */
async function terminalRisks(computer: Computer): Promise<Risk[]> {
  if (computer.fenced !== false) return [];
  const window = await computer.activeWindow?.().catch(() => null);
  // A window that cannot be named (no window manager tells which has the focus) may be a terminal.
  if (!window) return [{ kind: "keyboard_input", message: "types into a window that cannot be named, which may be a terminal whose commands can reach EasyAgentCU's server and data", unfenced: true }];
  const terminal = window.app ? TERMINAL_CLASS.test(window.app) && window.app : TERMINAL_TITLE.test(window.title) && window.title;
  return terminal ? [{ kind: "keyboard_input", message: `types into the terminal "${terminal}", whose commands can reach EasyAgentCU's server and data`, unfenced: true }] : [];
}

/** The element an action or a page deed lands on: under the pointer, the focused one for keys, or the deed's own. */
export function deedElement(action: ScreenAction | null, target: DeedTarget | null): ElementQuery | null {
  if (!action) return target?.element ?? null;
  switch (action.type) {
    case "click":
    case "double_click":
    case "triple_click":
      return { x: action.args.x, y: action.args.y };
    case "type":
    case "keypress":
    case "hold_key":
      return "focused";
    case "upload":
      return uploadPoint(action);
    default:
      return null;
  }
}

/**
 * Whether an action acts on the page it is on: a click, a drag, typing, keys (any of them reaches
 * the page's own handlers). Opening another address leaves it; scrolling, waiting and pointing only look.
 */
export function actsOnPage(action: ScreenAction): boolean {
  return ACTING.has(action.type) && action.type !== "navigate";
}

/**
 * Typing a `%name%` secret, or a password the person wrote in the task's words (`passwords`), is
 * typing into a sensitive field, whatever the field: a page's plain text box or search form may
 * carry it away as well as a password field.
 */
export function secretRisks(action: ScreenAction | null, target: DeedTarget | null, secrets: Secrets, passwords: readonly string[] = []): Risk[] {
  const text = action?.type === "type" ? action.args.text : (target?.text ?? "");
  const named = secrets.named(text).map((name): Risk => ({ kind: "sensitive_field", message: `types the secret %${name}%` }));
  const plain = passwords.some((password) => text.includes(password)) ? [{ kind: "sensitive_field", message: "types the password the task gives" } satisfies Risk] : [];
  return [...named, ...plain];
}

/** Adds `new_origin` for each origin a risk leads to that the task has not been on. */
export function withNewOrigins(risks: Risk[], visited: ReadonlySet<string>): Risk[] {
  const fresh = [...new Set(risks.flatMap((r) => (r.kind === "leave_site" && r.origin && !visited.has(r.origin) ? [r.origin] : [])))];
  return [...risks, ...fresh.map((origin): Risk => ({ kind: "new_origin", message: `opens ${origin} for the first time`, origin }))];
}

/** Action kinds that change something; on a sensitive site each of them waits for the person. */
const ACTING = new Set<ScreenAction["type"]>(["click", "double_click", "triple_click", "right_click", "drag", "type", "keypress", "hold_key", "navigate", "upload"]);

/**
 * `sensitive_site` when the action acts on, or opens, a site of the sensitive-site list; `declared`:
 * a page deed that says itself what it risks (a page's own tool) acts on the page as well.
 */
export function sensitiveSiteRisks(domains: readonly string[], pageUrl: string | null, action: ScreenAction | null, target: DeedTarget | null, declared = false): Risk[] {
  if (action ? !ACTING.has(action.type) : !target && !declared) return [];
  const urls = [pageUrl, action?.type === "navigate" ? action.args.url : null];
  const hosts = urls.flatMap((url) => {
    const host = url ? hostOf(url) : null;
    return host && inDomains(host, domains) ? [host] : [];
  });
  return [...new Set(hosts)].map((host) => ({ kind: "sensitive_site", message: `acts on ${host}, which is on the sensitive-site list` }));
}

/**
 * `local_network` for each origin the risks lead to that the fence keeps closed only until the
 * person allows it: a service on this machine or a private network that ALLOWED_ORIGINS does not name.
 */
export async function localNetworkRisks(gate: NetworkGate | undefined, urls: readonly string[]): Promise<Risk[]> {
  if (!gate) return [];
  const risks: Risk[] = [];
  for (const origin of new Set(urls.flatMap((url) => originOf(url) ?? []))) {
    const verdict = await gate.judge(origin);
    if (!verdict.allowed && verdict.local) risks.push({ kind: "local_network", message: `opens ${origin}, on this machine or a private network`, origin });
  }
  return risks;
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}
