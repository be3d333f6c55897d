// Key names as models write them (PROTOCOL.md: case-insensitive, common aliases) mapped to the
// canonical names of the W3C/Playwright key set.
const ALIASES: Record<string, string> = {
  ctrl: "Control",
  control: "Control",
  cmd: "Meta",
  command: "Meta",
  meta: "Meta",
  super: "Meta",
  win: "Meta",
  windows: "Meta",
  alt: "Alt",
  option: "Alt",
  opt: "Alt",
  shift: "Shift",
  esc: "Escape",
  escape: "Escape",
  enter: "Enter",
  return: "Enter",
  tab: "Tab",
  space: " ",
  spacebar: " ",
  backspace: "Backspace",
  bksp: "Backspace",
  delete: "Delete",
  del: "Delete",
  insert: "Insert",
  ins: "Insert",
  home: "Home",
  end: "End",
  pageup: "PageUp",
  pgup: "PageUp",
  pagedown: "PageDown",
  pgdn: "PageDown",
  up: "ArrowUp",
  arrowup: "ArrowUp",
  down: "ArrowDown",
  arrowdown: "ArrowDown",
  left: "ArrowLeft",
  arrowleft: "ArrowLeft",
  right: "ArrowRight",
  arrowright: "ArrowRight",
  capslock: "CapsLock",
  plus: "+",
  minus: "-",
};

/** `"CTRL"` → `"Control"`, `"f5"` → `"F5"`, `"a"` → `"a"`. Unknown names pass through. */
export function normalizeKey(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 1) return trimmed;
  const lower = trimmed.toLowerCase().replace(/[\s_-]/g, "");
  const alias = ALIASES[lower];
  if (alias) return alias;
  if (/^f([1-9]|1[0-9]|2[0-4])$/.test(lower)) return lower.toUpperCase();
  return trimmed;
}

/** Splits `"ctrl+a"` written as one string into its keys. */
export function normalizeChord(keys: string[]): string[] {
  return keys.flatMap((k) => (k.length > 1 && k.includes("+") ? k.split("+").filter(Boolean) : [k])).map(normalizeKey);
}
