// The browser toolset's element refs (`ref_7`) over ours (`e12`, `f1e5` in a frame): our page view
// is rewritten with names of its own, one per element while the tab stays on the page it was read
// on, and a name is taken back to our ref only there. Names are never reused, so a ref read on a
// page the tab has left is refused as stale, with what to do, instead of reaching another element.

/** Our ref in a view line: `[ref=e12]`. */
const OUR_REF = /\[ref=((?:f\d+)?e\d+)\]/g;
/** A view line's role: `- button "Pay now" [ref=e7]` → `button`. */
const ROLE = /^\s*- ([^\s"[:]+)/;

export type Resolved = { ok: true; ours: string; role: string } | { ok: false; message: string };

interface Issued {
  ours: string;
  role: string;
  /** The page it was read on: names from another page are stale. */
  page: number;
  url: string;
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
      .map((line) => {
        const role = ROLE.exec(line)?.[1] ?? "";
        return line.replace(OUR_REF, (_, ours: string) => `[${this.nameOf(ours, role, url)}]`);
      })
      .join("\n");
  }

  /** The toolset's name for one of our refs on the current page, given if it has none. */
  nameOf(ours: string, role: string, url: string): string {
    const { names, number } = this.page;
    let theirs = names.get(ours);
    if (!theirs) {
      theirs = `ref_${this.next++}`;
      names.set(ours, theirs);
      this.issued.set(theirs, { ours, role, page: number, url });
    } else if (role) this.issued.get(theirs)!.role = role;
    return theirs;
  }

  /** Our ref for a toolset ref, when it names an element of the page the tab shows now (`urlNow`). */
  resolve(theirs: string, urlNow: string | null): Resolved {
    const issued = this.issued.get(theirs);
    if (!issued) return { ok: false, message: `${theirs} is not a ref this browser gave. ${READ_AGAIN}` };
    if (issued.page !== this.page.number || issued.url !== urlNow) {
      const now = urlNow ? ` and the tab now shows ${urlNow}` : "";
      return { ok: false, message: `${theirs} is stale: it was read on ${issued.url}${now}. ${READ_AGAIN}` };
    }
    return { ok: true, ours: issued.ours, role: issued.role };
  }
}

export const READ_AGAIN = "Call read_page or find again and use a ref from its result.";

/** Why an element named by a ref that resolved could not be found: the page changed under it. */
export function goneMessage(theirs: string): string {
  return `${theirs} is stale: its element is no longer on the page. ${READ_AGAIN}`;
}
