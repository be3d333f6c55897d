// Where an action comes from, for the approval the person is asked: the person's own words, or the
// page. An action follows the page when something it carries — the text it types, a host it opens
// or sends to — is not in what the person wrote and the page holds it. An origin only the chat
// assistant chose is not the person's either: opening it leaves what they named.
import type { Computer, Risk } from "../computers/computer.ts";
import { originOf } from "../core/approval-policy.ts";
import type { ScreenAction } from "../perception/resolve.ts";
import type { DeedTarget } from "./classify.ts";

/** Shorter texts (a digit, "ok") are in any page and any task: they say nothing of where an action came from. */
const CITED_MIN = 4;

/** What an action carries that a page could have put in the model's mind: the text it types, the hosts it goes to. */
export function citedBy(action: ScreenAction | null, target: DeedTarget | null, leads: readonly string[]): string[] {
  const typed = action?.type === "type" ? action.args.text : (target?.text ?? null);
  return [...(typed ? [typed] : []), ...leads.flatMap((lead) => hostOf(lead) ?? [])];
}

/**
 * Whether an action follows the page rather than the person (the rule the approval card shows):
 * something it carries of at least CITED_MIN characters is not in what the person `said`, letter
 * case aside, and the page holds it now (its text, fields, attributes or address). Where the
 * computer cannot read its page's text (a desktop), nothing is flagged.
 */
export async function followsPage(computer: Pick<Computer, "pageShows">, said: string, cited: readonly string[]): Promise<boolean> {
  if (!computer.pageShows) return false;
  const person = said.toLowerCase();
  const unsaid = [...new Set(cited.map((c) => c.trim()))].filter((c) => c.length >= CITED_MIN && !person.includes(c.toLowerCase()));
  if (unsaid.length === 0) return false;
  // A page that cannot be read now (it is navigating) flags nothing: the approval is asked all the same.
  const shown = await computer.pageShows(unsaid).catch(() => []);
  return shown.some(Boolean);
}

/** Opening `url`, of an origin the chat assistant chose that the person has not named or allowed yet, leaves what they named. */
export function unnamedRisks(url: string, proposed: ReadonlySet<string> | undefined, trusted: ReadonlySet<string>): Risk[] {
  const origin = originOf(url);
  if (!origin || !proposed?.has(origin) || trusted.has(origin)) return [];
  return [{ kind: "leave_site", message: `opens ${origin}, which the assistant chose: your message did not name it`, origin }];
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).host || null;
  } catch {
    return null;
  }
}
