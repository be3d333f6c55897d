// The part of the `x11` package (a pure JavaScript X11 protocol client) that the desktop uses.
declare module "x11" {
  type Callback<T> = (error: Error | null, value: T) => void;

  export interface XTest {
    KeyPress: number;
    KeyRelease: number;
    ButtonPress: number;
    ButtonRelease: number;
    MotionNotify: number;
    FakeInput(type: number, detail: number, time: number, window: number, x: number, y: number): void;
  }

  /** A core event as the package parses it: its name and the fields of the events the desktop reads. */
  export interface XEvent {
    name?: string;
    time?: number;
    /** PropertyNotify: the window whose property changed, and which. */
    wid?: number;
    atom?: number;
    /** SelectionRequest and SelectionClear. */
    owner?: number;
    requestor?: number;
    selection?: number;
    target?: number;
    property?: number;
  }

  export interface XClient {
    /** The package's atom cache, name → atom and atom → name. */
    atoms: Record<string, number>;
    atom_names: Record<number, string>;
    require(extension: "xtest", callback: Callback<XTest>): void;
    GetImage(format: number, drawable: number, x: number, y: number, width: number, height: number, planeMask: number, callback: Callback<{ depth: number; data: Buffer }>): void;
    QueryPointer(window: number, callback: Callback<{ rootX: number; rootY: number; child: number }>): void;
    GetKeyboardMapping(first: number, count: number, callback: Callback<number[][]>): void;
    ChangeKeyboardMapping(first: number, keysymsPerKeycode: number, keysyms: number[]): void;
    InternAtom(onlyIfExists: boolean, name: string, callback: Callback<number>): void;
    GetProperty(del: number, window: number, property: number, type: number, offset: number, length: number, callback: Callback<{ type: number; data: Buffer | number[] }>): void;
    AllocID(): number;
    /** InputOnly windows take depth 0 and visual 0 (CopyFromParent). */
    CreateWindow(id: number, parent: number, x: number, y: number, width: number, height: number, borderWidth: number, depth: number, windowClass: number, visual: number, values: { eventMask?: number }): void;
    DestroyWindow(window: number): void;
    /** mode: 0 replace, 1 prepend, 2 append; format: 8, 16 or 32 bits an element. */
    ChangeProperty(mode: number, window: number, property: number, type: number, format: number, data: Buffer | number[]): void;
    SetSelectionOwner(owner: number, selection: number, time: number): void;
    GetSelectionOwner(selection: number, callback: Callback<number>): void;
    SendEvent(destination: number, propagate: number, eventMask: number, event: { name: string } & Record<string, number | string>): void;
    on(event: "error", listener: (error: Error) => void): void;
    on(event: "event", listener: (event: XEvent) => void): void;
    on(event: "end" | "close", listener: () => void): void;
    terminate(): void;
  }

  export interface XDisplay {
    client: XClient;
    min_keycode: number;
    max_keycode: number;
    screen: { root: number; pixel_width: number; pixel_height: number; root_depth: number }[];
  }

  export function createClient(options: { display: string }, callback: Callback<XDisplay>): XClient;
}
