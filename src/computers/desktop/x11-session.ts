// One connection to an X server, held for the computer's life: XTest for input and GetImage for
// capture, with no process per action. Requests go out in order; `sync` waits for a round trip,
// after which the server has handled everything sent before it.
import x11, { type XClient, type XDisplay, type XTest } from "x11";
import { AppError } from "../../core/errors.ts";

const Z_PIXMAP = 2;
const ANY_PROPERTY_TYPE = 0;

export class X11Session {
  private constructor(
    private readonly display: XDisplay,
    readonly xtest: XTest,
    readonly name: string,
  ) {}

  static connect(name: string): Promise<X11Session> {
    return new Promise((resolve, reject) => {
      const client = x11.createClient({ display: name }, (error, display) => {
        if (error) return reject(new AppError("COMPUTER_UNAVAILABLE", `Could not connect to the X display ${name}: ${error.message}`));
        // The package caches interned atoms in one object shared by every connection, but an atom's
        // number is its server's own: each connection keeps a cache of its own (the core atoms are asked too).
        display.client.atoms = {};
        display.client.atom_names = {};
        display.client.require("xtest", (extError, xtest) => {
          if (extError) return reject(new AppError("COMPUTER_UNAVAILABLE", `The X display ${name} has no XTEST extension, which input needs.`));
          resolve(new X11Session(display, xtest, name));
        });
      });
      client.on("error", (error) => reject(new AppError("COMPUTER_UNAVAILABLE", `The X display ${name} failed: ${error.message}`)));
    });
  }

  get client(): XClient {
    return this.display.client;
  }

  get root(): number {
    return this.display.screen[0]!.root;
  }

  get size(): { width: number; height: number } {
    const screen = this.display.screen[0]!;
    return { width: screen.pixel_width, height: screen.pixel_height };
  }

  get keycodes(): { min: number; max: number } {
    return { min: this.display.min_keycode, max: this.display.max_keycode };
  }

  /** The whole screen as 32-bit BGRX pixels. */
  capture(): Promise<Buffer> {
    const { width, height } = this.size;
    return this.call<{ depth: number; data: Buffer }>((done) => this.client.GetImage(Z_PIXMAP, this.root, 0, 0, width, height, 0xffffffff, done)).then((image) => image.data);
  }

  pointer(): Promise<{ x: number; y: number }> {
    return this.call<{ rootX: number; rootY: number }>((done) => this.client.QueryPointer(this.root, done)).then((p) => ({ x: p.rootX, y: p.rootY }));
  }

  /** A round trip: everything sent before has been handled by the server. */
  async sync(): Promise<void> {
    await this.pointer();
  }

  keyboardMapping(): Promise<number[][]> {
    const { min, max } = this.keycodes;
    return this.call<number[][]>((done) => this.client.GetKeyboardMapping(min, max - min + 1, done));
  }

  atom(name: string): Promise<number> {
    return this.call<number>((done) => this.client.InternAtom(false, name, done));
  }

  /** The window that owns the selection (an atom), 0 for none. */
  selectionOwner(selection: number): Promise<number> {
    return this.call<number>((done) => this.client.GetSelectionOwner(selection, done));
  }

  /** A window property as bytes, or null when it is not set. */
  async property(window: number, name: string): Promise<Buffer | null> {
    const atom = await this.atom(name);
    const value = await this.call<{ type: number; data: Buffer | number[] }>((done) => this.client.GetProperty(0, window, atom, ANY_PROPERTY_TYPE, 0, 1024, done));
    if (value.type === 0) return null;
    return Buffer.isBuffer(value.data) ? value.data : Buffer.from(value.data);
  }

  close(): void {
    this.client.terminate();
  }

  private call<T>(request: (done: (error: Error | null, value: T) => void) => void): Promise<T> {
    return new Promise((resolve, reject) => {
      request((error, value) => (error ? reject(new AppError("COMPUTER_UNAVAILABLE", `The X display ${this.name} failed: ${error.message}`)) : resolve(value)));
    });
  }
}
