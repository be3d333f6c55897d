// The browser toolset's element refs (`ref_7`) over ours (`e12`, `f1e5` in a frame): our page view
// is rewritten with names of its own, one per element while the tab stays on the page it was read
// on, and a name is taken back to our ref only there, with the role and name it was read with
// (which the element must still have: member.ts checks). Names are never reused, so a ref read on a
// page the tab has left is refused as stale, with what to do, instead of reaching another element.

/** Our ref in a view line: `[ref=e12]`. */
const OUR_REF = /\[ref=((?:f\d+)?e\d+)\]/g;
/** A view line's role and name: `- button "Pay now" [ref=e7]` → `button`, `"Pay now"`. */
const ROLE_AND_NAME = /^\s*- ([^\s"[:{]+)( "(?:[^"\\]|\\.)*")?/;

/** What an element was read as: its role and its name (`button "Pay now"`). */
export function identityOf(line: string): { role: string; identity: string } {
  const match = ROLE_AND_NAME.exec(line);
  return { role: match?.[1] ?? "", identity: match ? `${match[1]}${match[2] ?? ""}` : "" };
}

export type Resolved = { ok: true; ours: string; role: string; identity: string } | { ok: false; message: string };

interface Issued {
  ours: string;
  role: string;
  identity: string;
  /** The page it was read on: names from another page are stale. */
  page: number;
  url: string;
  /** What a later read showed in its place, when it was no longer this element. */
  now: string | null;
}

export class RefBook {
  private next = 1;
  /** The page the names were last given on: its address, and our refs' names there. */
  private page = { number: 0, url: "", names: new Map<string, string>() };
  private readonly issued = new Map<string, Issued>();

  /**
   * The view's text with our refs replaced by the toolset's (`[ref=e12]` → `[ref_3]`), named on the
   * page at `url`: an element keeps its name for as long as the tab stays on that page.
   */
  name(text: string, url: string): string {
    if (url !== this.page.url) this.page = { number: this.page.number + 1, url, names: new Map() };
    return text
      .split("\n")
      .map((line) => line.replace(OUR_REF, (_, ours: string) => `[${this.nameOf(ours, line)}]`))
      .join("\n");
  }

  /**
   * The toolset's name for one of our refs on the current page, read on `line`: the one it had,
   * while it reads as the same role and name; else a new one, and the old name is stale.
   */
  nameOf(ours: string, line: string): string {
    const { names, number, url } = this.page;
    const read = identityOf(line);
    const had = names.get(ours);
    if (had && this.issued.get(had)!.identity === read.identity) return had;
    if (had) this.issued.get(had)!.now = read.identity;
    const theirs = `ref_${this.next++}`;
    names.set(ours, theirs);
    this.issued.set(theirs, { ours, ...read, page: number, url, now: null });
    return theirs;
  }

  /** Our ref for a toolset ref, when it names an element of the page the tab shows now (`urlNow`). */
  resolve(theirs: string, urlNow: string | null): Resolved {
    const issued = this.issued.get(theirs);
    if (!issued) return { ok: false, message: `${theirs} is not a ref this browser gave. ${READ_AGAIN}` };
    if (issued.url !== urlNow) {
      const now = urlNow ? ` and the tab now shows ${urlNow}` : "";
      return { ok: false, message: `${theirs} is stale: it was read on ${issued.url}${now}. ${READ_AGAIN}` };
    }
    if (issued.page !== this.page.number) return { ok: false, message: `${theirs} is stale: the tab left ${issued.url} and came back since it was read. ${READ_AGAIN}` };
    if (issued.now !== null) return { ok: false, message: changedMessage(theirs, issued.identity, issued.now) };
    return { ok: true, ours: issued.ours, role: issued.role, identity: issued.identity };
  }
}

export const READ_AGAIN = "Call read_page or find again and use a ref from its result.";

/** Why an element named by a ref that resolved could not be found: the page changed under it. */
export function goneMessage(theirs: string): string {
  return `${theirs} is stale: its element is no longer on the page. ${READ_AGAIN}`;
}

/** Why a ref whose element is now another one (the page was rebuilt) is refused. */
export function changedMessage(theirs: string, was: string, now: string): string {
  return `${theirs} is stale: it was read as ${was}, and the page now has ${now || "nothing"} there. ${READ_AGAIN}`;
}
