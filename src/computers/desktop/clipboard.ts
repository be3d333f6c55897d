// The desktop's clipboard, owned over the computer's X connection: a small unmapped window holds
// the CLIPBOARD and PRIMARY selections with the text to paste and answers the programs that ask
// for it (ICCCM §2: TARGETS, TIMESTAMP, UTF8_STRING, STRING). No process per paste, as xclip would
// be; the text stays on offer until the next paste, another owner, or close.
import type { XEvent } from "x11";
import { AppError } from "../../core/errors.ts";
import type { X11Session } from "./x11-session.ts";

const INPUT_ONLY = 2;
const PROPERTY_CHANGE_MASK = 0x00400000;
const PROP_MODE_REPLACE = 0;
const PROP_MODE_APPEND = 2;
const ATOM_ATOM = 4;
const ATOM_INTEGER = 19;
const ATOM_STRING = 31;
/** ChangeProperty without BIG-REQUESTS: at most 65535 four-byte units, 24 bytes of them the header. */
const MAX_TEXT_BYTES = 65535 * 4 - 24;
/** How long the focused program may take to ask for the text after the paste keys. */
const PASTE_TIMEOUT_MS = 3_000;

type AtomName = "CLIPBOARD" | "PRIMARY" | "TARGETS" | "TIMESTAMP" | "UTF8_STRING" | "EASYAGENTCU_TIMESTAMP";
const ATOM_NAMES: AtomName[] = ["CLIPBOARD", "PRIMARY", "TARGETS", "TIMESTAMP", "UTF8_STRING", "EASYAGENTCU_TIMESTAMP"];

export class Clipboard {
  /** The text on offer and the server time it was offered at; null when another program owns the selections. */
  private offer: { text: string; time: number } | null = null;
  /** Selections this window owns now. */
  private readonly owned = new Set<number>();
  /** Called when a program has been sent the text of the paste under way. */
  private served: (() => void) | null = null;
  private timestamp: ((time: number) => void) | null = null;

  private constructor(
    private readonly x: X11Session,
    private readonly window: number,
    private readonly atoms: Record<AtomName, number>,
  ) {
    x.client.on("event", (event) => this.onEvent(event));
  }

  static async open(x: X11Session): Promise<Clipboard> {
    const values = await Promise.all(ATOM_NAMES.map((name) => x.atom(name)));
    const atoms = Object.fromEntries(ATOM_NAMES.map((name, i) => [name, values[i]!])) as Record<AtomName, number>;
    const window = x.client.AllocID();
    x.client.CreateWindow(window, x.root, -10, -10, 1, 1, 0, 0, INPUT_ONLY, 0, { eventMask: PROPERTY_CHANGE_MASK });
    return new Clipboard(x, window, atoms);
  }

  /**
   * Pastes the text: offers it as the clipboard and the primary selection, sends the paste keys,
   * and returns once the focused program has been sent the text — events the computer sends
   * after this reach the program after the paste.
   */
  async paste(text: string, pressPasteKeys: () => Promise<void>): Promise<void> {
    if (Buffer.byteLength(text) > MAX_TEXT_BYTES) {
      throw new AppError("ACTION_FAILED", `Text over ${Math.floor(MAX_TEXT_BYTES / 1024)} KB cannot be pasted on the desktop: type it in parts.`);
    }
    const time = await this.serverTime();
    const selections = [this.atoms.CLIPBOARD, this.atoms.PRIMARY];
    for (const selection of selections) this.x.client.SetSelectionOwner(this.window, selection, time);
    const owners = await Promise.all(selections.map((selection) => this.x.selectionOwner(selection)));
    if (owners.some((owner) => owner !== this.window)) throw new AppError("ACTION_FAILED", "Another program kept the clipboard, so the text could not be pasted.");
    for (const selection of selections) this.owned.add(selection);
    this.offer = { text, time };
    let timer: NodeJS.Timeout | undefined;
    const taken = new Promise<void>((resolve, reject) => {
      this.served = resolve;
      timer = setTimeout(
        () => reject(new AppError("ACTION_FAILED", `The focused window did not take the pasted text within ${PASTE_TIMEOUT_MS / 1000} s: click into a text field first.`)),
        PASTE_TIMEOUT_MS,
      );
    });
    try {
      await pressPasteKeys();
      await taken;
    } finally {
      clearTimeout(timer);
      this.served = null;
    }
  }

  /** Gives the selections up with the window. */
  close(): void {
    this.x.client.DestroyWindow(this.window);
    this.owned.clear();
    this.offer = null;
  }

  /** A server timestamp, as ICCCM asks of a selection owner: the time of a change to a property of our window. */
  private serverTime(): Promise<number> {
    return new Promise((resolve) => {
      this.timestamp = resolve;
      this.x.client.ChangeProperty(PROP_MODE_APPEND, this.window, this.atoms.EASYAGENTCU_TIMESTAMP, ATOM_STRING, 8, Buffer.alloc(0));
    });
  }

  private onEvent(event: XEvent): void {
    if (event.name === "PropertyNotify" && event.wid === this.window && event.atom === this.atoms.EASYAGENTCU_TIMESTAMP) {
      this.timestamp?.(event.time!);
      this.timestamp = null;
    } else if (event.name === "SelectionClear" && event.owner === this.window) {
      this.owned.delete(event.selection!);
      if (this.owned.size === 0) this.offer = null;
    } else if (event.name === "SelectionRequest" && event.owner === this.window) {
      this.answer(event as Required<XEvent>);
    }
  }

  /** Converts the text to the target asked for into the requestor's property, or refuses; then tells the requestor. */
  private answer(request: Required<XEvent>): void {
    const { requestor, selection, target, time } = request;
    // Clients older than ICCCM 2 name no property: the target's name is the property then.
    const property = request.property || target;
    const stored = this.owned.has(selection) && this.offer ? this.store(requestor, property, target, this.offer) : false;
    this.x.client.SendEvent(requestor, 0, 0, { name: "SelectionNotify", time, requestor, selection, target, property: stored ? property : 0 });
    if (stored && (target === this.atoms.UTF8_STRING || target === ATOM_STRING)) this.served?.();
  }

  private store(window: number, property: number, target: number, offer: { text: string; time: number }): boolean {
    const { client } = this.x;
    const { TARGETS, TIMESTAMP, UTF8_STRING } = this.atoms;
    if (target === TARGETS) client.ChangeProperty(PROP_MODE_REPLACE, window, property, ATOM_ATOM, 32, [TARGETS, TIMESTAMP, UTF8_STRING, ATOM_STRING]);
    else if (target === TIMESTAMP) client.ChangeProperty(PROP_MODE_REPLACE, window, property, ATOM_INTEGER, 32, [offer.time]);
    else if (target === UTF8_STRING) client.ChangeProperty(PROP_MODE_REPLACE, window, property, UTF8_STRING, 8, Buffer.from(offer.text, "utf8"));
    // STRING is Latin-1 (ICCCM §2.6.2): text beyond it is refused, and the program asks for UTF8_STRING.
    else if (target === ATOM_STRING && /^[\n\t\x20-\x7e\xa0-\xff]*$/.test(offer.text)) client.ChangeProperty(PROP_MODE_REPLACE, window, property, ATOM_STRING, 8, Buffer.from(offer.text, "latin1"));
    else return false;
    return true;
  }
}
