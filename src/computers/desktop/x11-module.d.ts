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

  export interface XClient {
    require(extension: "xtest", callback: Callback<XTest>): void;
    GetImage(format: number, drawable: number, x: number, y: number, width: number, height: number, planeMask: number, callback: Callback<{ depth: number; data: Buffer }>): void;
    QueryPointer(window: number, callback: Callback<{ rootX: number; rootY: number; child: number }>): void;
    GetKeyboardMapping(first: number, count: number, callback: Callback<number[][]>): void;
    ChangeKeyboardMapping(first: number, keysymsPerKeycode: number, keysyms: number[]): void;
    InternAtom(onlyIfExists: boolean, name: string, callback: Callback<number>): void;
    GetProperty(del: number, window: number, property: number, type: number, offset: number, length: number, callback: Callback<{ type: number; data: Buffer | number[] }>): void;
    on(event: "error", listener: (error: Error) => void): void;
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
