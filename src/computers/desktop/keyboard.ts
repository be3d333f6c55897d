// Keys and text through XTest. A key is sent as the keycode that carries its keysym in the
// server's keyboard map (with Shift when it sits on the shifted level). A character the map does
// not carry — an accent, a symbol, any Unicode character — is put on a spare keycode for a moment,
// so text types without an input method; the map is restored afterwards. (The desktop pastes CJK
// instead: typing.ts.)
import { setTimeout as delay } from "node:timers/promises";
import { AppError } from "../../core/errors.ts";
import type { Progress } from "../../core/progress.ts";
import { normalizeChord } from "../../protocol/keys.ts";
import type { X11Session } from "./x11-session.ts";

/** Keysyms of the W3C key names that are not characters (X11's keysymdef.h). */
const NAMED_KEYSYMS: Record<string, number> = {
  Enter: 0xff0d,
  Tab: 0xff09,
  Escape: 0xff1b,
  Backspace: 0xff08,
  Delete: 0xffff,
  Insert: 0xff63,
  Home: 0xff50,
  End: 0xff57,
  PageUp: 0xff55,
  PageDown: 0xff56,
  ArrowLeft: 0xff51,
  ArrowUp: 0xff52,
  ArrowRight: 0xff53,
  ArrowDown: 0xff54,
  CapsLock: 0xffe5,
  Shift: 0xffe1,
  Control: 0xffe3,
  Alt: 0xffe9,
  Meta: 0xffeb,
  " ": 0x20,
};
const SHIFT = 0xffe1;
/** Other programs read a changed map only after the server tells them; this long is enough for that. */
const REMAP_SETTLE_MS = 15;
/** Keystrokes sent between two round trips to the X server, where typing may be cancelled. */
const STROKES_PER_SYNC = 8;

/** The keysym of a key name (`Enter`, `F5`) or a character. */
export function keysymOf(key: string): number | null {
  const named = NAMED_KEYSYMS[key];
  if (named !== undefined) return named;
  const f = /^F(\d{1,2})$/.exec(key);
  if (f) return 0xffbe + Number(f[1]) - 1;
  const chars = [...key];
  if (chars.length !== 1) return null;
  if (key === "\n") return NAMED_KEYSYMS.Enter!;
  if (key === "\t") return NAMED_KEYSYMS.Tab!;
  const code = key.codePointAt(0)!;
  // Latin-1 keysyms are their code points; every other character has a Unicode keysym.
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) ? code : 0x01000000 | code;
}

export class Keyboard {
  private constructor(
    private readonly x: X11Session,
    private readonly rows: number[][],
    /** Keycodes with nothing on them, lent to characters the map lacks. */
    private readonly spares: number[],
  ) {}

  /** Characters on spare keycodes now, keysym → keycode, the one lent longest ago first. */
  private readonly lent = new Map<number, number>();

  static async open(x: X11Session): Promise<Keyboard> {
    const rows = await x.keyboardMapping();
    const spares = rows.flatMap((row, i) => (row.every((k) => k === 0) ? [x.keycodes.min + i] : []));
    return new Keyboard(x, rows, spares);
  }

  /**
   * Types the text. Characters the map lacks are put on spare keycodes first, all of a run at once,
   * and stay there: a program reads the map only when it next handles a key, so taking a keycode
   * back at once could leave a keystroke it has not read yet with nothing on it. When the spares
   * run out, the one lent longest ago is taken back for the next character.
   */
  async type(text: string, progress?: Progress): Promise<void> {
    const keysyms = [...text.replace(/\r\n?/g, "\n")].flatMap((char) => keysymOf(char) ?? []);
    if (this.spares.length === 0 && keysyms.some((keysym) => !this.find(keysym))) {
      throw new AppError("ACTION_FAILED", "The keyboard map has no free keycode to type this character with.");
    }
    for (let start = 0; start < keysyms.length; ) {
      const lending: [keysym: number, code: number][] = [];
      const inRun = new Set<number>();
      let end = start;
      for (; end < keysyms.length; end++) {
        const keysym = keysyms[end]!;
        if (!this.find(keysym) && !this.lent.has(keysym) && !lending.some(([k]) => k === keysym)) {
          const code = this.spareFor(lending, inRun);
          if (code === null) break;
          lending.push([keysym, code]);
        }
        inRun.add(keysym);
      }
      await this.lend(lending);
      // Sent a few at a time, each batch received before the next: typing cancelled stops within a batch.
      for (const [n, keysym] of keysyms.slice(start, end).entries()) {
        if (n % STROKES_PER_SYNC === 0) {
          await this.x.sync();
          progress?.check();
        }
        const found = this.find(keysym);
        this.stroke(found?.code ?? this.lent.get(keysym)!, found?.shift ?? false);
      }
      await this.x.sync();
      start = end;
    }
  }

  /** Gives every lent keycode back (a real display's map is the person's). */
  async restore(): Promise<void> {
    const codes = [...this.lent.values()];
    this.lent.clear();
    await this.lend(codes.map((code) => [0, code]));
  }

  /** A chord (`["Control", "s"]`): its keys pressed in order, released in reverse; `hold` runs while they are down. */
  async press(keys: string[], hold?: () => Promise<void>): Promise<void> {
    const chord = normalizeChord(keys);
    const codes = chord.map((key) => {
      const keysym = keysymOf(key) ?? keysymOf(key.toLowerCase());
      const found = keysym === null ? null : this.find(keysym);
      if (!found) throw new AppError("ACTION_FAILED", `There is no key ${JSON.stringify(key)} on this keyboard.`);
      return found.code;
    });
    for (const code of codes) this.x.xtest.FakeInput(this.x.xtest.KeyPress, code, 0, this.x.root, 0, 0);
    try {
      if (hold) {
        await this.x.sync();
        await hold();
      }
    } finally {
      for (const code of [...codes].reverse()) this.x.xtest.FakeInput(this.x.xtest.KeyRelease, code, 0, this.x.root, 0, 0);
      await this.x.sync();
    }
  }

  /**
   * A spare keycode for the next character: a free one, else the one lent longest ago to a
   * character this run does not type; null when every spare is in use by the run.
   */
  private spareFor(lending: [number, number][], inRun: ReadonlySet<number>): number | null {
    const taken = new Set([...this.lent.values(), ...lending.map(([, code]) => code)]);
    const free = this.spares.find((code) => !taken.has(code));
    if (free !== undefined) return free;
    const oldest = [...this.lent].find(([keysym]) => !inRun.has(keysym));
    if (!oldest) return null;
    this.lent.delete(oldest[0]);
    return oldest[1];
  }

  /** Puts each keysym on its keycode (0 takes it off), and waits until programs can have read the new map. */
  private async lend(pairs: [keysym: number, code: number][]): Promise<void> {
    if (pairs.length === 0) return;
    const per = this.rows[0]!.length;
    for (const [keysym, code] of pairs) {
      this.x.client.ChangeKeyboardMapping(code, per, Array<number>(per).fill(keysym));
      if (keysym !== 0) this.lent.set(keysym, code);
    }
    await this.x.sync();
    await delay(REMAP_SETTLE_MS);
  }

  private stroke(code: number, shift: boolean): void {
    const { xtest, root } = this.x;
    const shiftCode = shift ? this.find(SHIFT)?.code : undefined;
    if (shiftCode !== undefined) xtest.FakeInput(xtest.KeyPress, shiftCode, 0, root, 0, 0);
    xtest.FakeInput(xtest.KeyPress, code, 0, root, 0, 0);
    xtest.FakeInput(xtest.KeyRelease, code, 0, root, 0, 0);
    if (shiftCode !== undefined) xtest.FakeInput(xtest.KeyRelease, shiftCode, 0, root, 0, 0);
  }

  /** The keycode carrying the keysym on its plain or shifted level. */
  private find(keysym: number): { code: number; shift: boolean } | null {
    const { min } = this.x.keycodes;
    for (const [i, row] of this.rows.entries()) {
      if (row[0] === keysym) return { code: min + i, shift: false };
    }
    for (const [i, row] of this.rows.entries()) {
      if (row[1] === keysym) return { code: min + i, shift: true };
    }
    return null;
  }
}
