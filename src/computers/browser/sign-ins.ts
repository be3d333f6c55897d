// A chat's sign-ins, carried from one of its tasks to the next. Each task drives a browser context
// of its own, closed with it; the cookies that context holds as it closes — where nearly every site
// keeps who is signed in — are kept here for the chat, in this process's memory only (never written
// to disk), and the chat's next task starts with them. Deleting the chat forgets them. With workers
// (TASK_QUEUE=postgres) a chat's tasks run in several processes: its sign-ins are kept in the
// database instead (SharedSignIns), after each step as well, so that a task another worker takes
// up after its own died starts signed in where it was.
//
// Local storage, session storage and IndexedDB are not carried: putting a site's local storage back
// means loading a page of that site first (about 0.2 s per task), or a script that every frame of
// every site would receive with every site's values.
import type { BrowserContext } from "playwright-core";

export type SignInCookies = Awaited<ReturnType<BrowserContext["cookies"]>>;

/** What a task's browser starts with, and where it gives back what it holds as it closes. */
export interface CarriedSignIns {
  readonly cookies: SignInCookies;
  /** Kept after each step too (when the browser is idle), not only as it closes: another process may take the task up. */
  readonly eachStep: boolean;
  keep(cookies: SignInCookies): void | Promise<void>;
}

/**
 * How one task writes its chat's sign-ins where they are shared: the write keeps nothing once the
 * task was taken up by another process, or its chat deleted.
 */
export type SignInWrite = (cookies: string) => Promise<void>;

/** Where a chat's sign-ins are kept: this process's memory (SignIns), or the database workers share (SharedSignIns). */
export interface SignInKeeper {
  /** The chat's sign-ins for one of its tasks, which writes them through `write` where they are shared. */
  of(chat: string, write: SignInWrite): Promise<CarriedSignIns>;
  forget(chat: string): void;
}

/** The chats whose sign-ins are kept: past this many, the one that opened a browser longest ago is forgotten. */
const MAX_CHATS = 100;
/** How long a closing browser may take to give its cookies; one that takes longer keeps nothing. */
const READ_TIMEOUT_MS = 2_000;

/** One chat's sign-ins, and how many times they were kept. A chat forgotten and used again is another. */
interface Chat {
  cookies: SignInCookies;
  kept: number;
}

export class SignIns implements SignInKeeper {
  private readonly chats = new Map<string, Chat>();

  /** The chat's sign-ins for one of its tasks. */
  async of(id: string): Promise<CarriedSignIns> {
    const chat = this.chats.get(id) ?? { cookies: [], kept: 0 };
    this.chats.delete(id);
    this.chats.set(id, chat);
    for (const oldest of this.chats.keys()) {
      if (this.chats.size <= MAX_CHATS) break;
      this.chats.delete(oldest);
    }
    const { kept, cookies: started } = chat;
    return {
      cookies: started,
      eachStep: false,
      // What changed, over what the browser started with: not into a chat forgotten since, nor over
      // what a later task kept. A browser whose task was stopped while it opened changed nothing,
      // and closes whenever it comes: it keeps nothing, before or after the next task's.
      keep: (cookies) => {
        if (this.chats.get(id) !== chat || chat.kept !== kept || sameCookies(cookies, started)) return;
        chat.cookies = cookies;
        chat.kept++;
      },
    };
  }

  forget(id: string): void {
    this.chats.delete(id);
  }
}

/** The database's side of SharedSignIns: each chat's cookies as JSON text, written by its task (SignInWrite). */
export interface SignInPlace {
  read(chat: string): Promise<string | null>;
  forget(chat: string): Promise<void>;
}

/**
 * A chat's sign-ins in the database the workers share. A chat runs one task at a time, so the last
 * cookies its browser held are the chat's; each task writes only what changed since it last wrote.
 * A write that fails is tried again with the next. A task that lost its chat's sign-ins (a frozen
 * worker that wakes after another took its task up) writes nothing over its successor's.
 */
export class SharedSignIns implements SignInKeeper {
  constructor(
    private readonly place: SignInPlace,
    private readonly failed: (error: unknown) => void,
  ) {}

  async of(chat: string, write: SignInWrite): Promise<CarriedSignIns> {
    const text = await this.place.read(chat);
    const cookies = text ? (JSON.parse(text) as SignInCookies) : [];
    let written = cookies;
    let writes: Promise<void> = Promise.resolve();
    return {
      cookies,
      eachStep: true,
      keep: (now) => {
        writes = writes.then(async () => {
          if (sameCookies(now, written)) return;
          await write(JSON.stringify(now));
          written = now;
        }).catch(this.failed);
        return writes;
      },
    };
  }

  forget(chat: string): void {
    this.place.forget(chat).catch(this.failed);
  }
}

function sameCookies(a: SignInCookies, b: SignInCookies): boolean {
  const jar = (cookies: SignInCookies) => JSON.stringify(cookies.map((c) => [c.domain, c.path, c.name, c.value, c.expires]).sort());
  return a.length === b.length && jar(a) === jar(b);
}

/**
 * Puts the cookies into a context before its task's first page loads, and never fails: one the
 * browser refuses (a cookie Chromium gave out under rules it no longer takes) is left out, not the
 * rest with it; a browser that died takes none, and the task meets that at its first page.
 */
export async function addCookies(context: BrowserContext, cookies: SignInCookies): Promise<void> {
  if (cookies.length === 0) return;
  await context.addCookies(cookies).catch(() => Promise.all(cookies.map((cookie) => context.addCookies([cookie]).catch(() => undefined))));
}

/** The context's cookies, or null when it cannot give them in time (its browser died or hangs). */
export async function readCookies(context: BrowserContext): Promise<SignInCookies | null> {
  const late = new Promise<null>((resolve) => setTimeout(resolve, READ_TIMEOUT_MS, null).unref());
  return Promise.race([context.cookies().catch(() => null), late]);
}
