// The approval policy (seed 000 §9, seed 001 §3.3): every action the hands are asked to do is
// classified first, and the policy says per class whether it runs (allow), waits for the person
// (ask) or is refused (deny). Page content is untrusted input: an action that leaves the site,
// submits a form or types into a sensitive field is allowed without asking only where the person
// named the origin themselves (the task's start page, an address in the task), whatever the
// policy or the model says.
import { readFileSync } from "node:fs";
import { z } from "zod";
import { ACTION_CLASSES, type ActionClass } from "../protocol/index.ts";

export const VERDICTS = ["allow", "ask", "deny"] as const;
export type Verdict = (typeof VERDICTS)[number];

/** Why an action may need the person: its class, said as a person would (`submits the form "pay"`). */
export interface Risk {
  kind: ActionClass;
  message: string;
  /** Where the action goes, when it goes somewhere: the origin a link, a form or an address leads to. */
  origin?: string;
  /** It reaches EasyAgentCU's own server and data (keys into an unfenced desktop's terminal): a policy that allows its class still asks. */
  unfenced?: true;
}

export type ApprovalPolicy = Record<ActionClass, Verdict>;

/** Seed 000 §9: submitting, paying and deleting wait for the person; so does whatever reaches outside the site. */
export const DEFAULT_APPROVAL_POLICY: ApprovalPolicy = {
  submit: "ask",
  pay: "ask",
  delete: "ask",
  send: "ask",
  download: "ask",
  // A file goes where the person named without asking; anywhere else asks (PROVENANCE).
  upload: "allow",
  leave_site: "ask",
  new_origin: "allow",
  local_network: "ask",
  sensitive_site: "ask",
  sensitive_field: "ask",
  hotkey: "ask",
  // Seed 003 §5-2: pointer and keyboard calls are medium risk; computer_use, which hands the
  // desktop to an automated loop, is high.
  medium_risk: "allow",
  keyboard_input: "allow",
  high_risk: "ask",
};

/**
 * Words in a control's label that say what pressing it may do (seed 000 §9), as regular
 * expressions' sources: a page's classifier, which runs in the page, takes them as they are.
 */
export const PRESS_WORDS = {
  pay: String.raw`\b(pay|buy|purchase|place order|check ?out|confirm order|subscribe)\b|付款|支付|购买|下单`,
  delete: String.raw`\b(delete|remove|erase|destroy|discard)\b|删除|移除`,
  send: String.raw`\b(send|post|publish|reply|tweet)\b|发送|发布`,
} as const satisfies Partial<Record<ActionClass, string>>;

/** What pressing a control captioned `label` may do, by its words alone (a desktop's): pay, delete or send. */
export function pressRisks(label: string): Risk[] {
  const name = label.trim().replace(/\s+/g, " ");
  if (name.length === 0 || name.length > 60) return [];
  const words = Object.entries(PRESS_WORDS) as [keyof typeof PRESS_WORDS, string][];
  return words.filter(([, source]) => new RegExp(source, "i").test(name)).map(([kind]) => ({ kind, message: `presses "${name}", which may ${kind}` }));
}

/**
 * Classes of actions a click of which is never made twice when it shows no effect: it may have had
 * one the computer could not tell (a payment sent by a script, a file fetched by the browser's own
 * downloader), and a second would pay, send, download or upload again.
 */
export const UNREPEATED: ReadonlySet<ActionClass> = new Set<ActionClass>(["submit", "pay", "delete", "send", "download", "upload"]);

/**
 * The classes an injected instruction would use to carry data away: never allowed blindly. An
 * upload hands the person's file to the page's origin, as a form sends its fields.
 */
const PROVENANCE: ReadonlySet<ActionClass> = new Set(["leave_site", "submit", "sensitive_field", "upload"]);

const policyObject = z.partialRecord(z.enum(ACTION_CLASSES), z.enum(VERDICTS));

/**
 * APPROVAL_POLICY: a JSON object of class → verdict, inline or the path of a file holding it;
 * classes it leaves out keep their default.
 */
export const approvalPolicySchema = z
  .preprocess((value, ctx) => {
    if (typeof value !== "string") return value;
    const inline = value.trim().startsWith("{");
    try {
      return JSON.parse(inline ? value : readFileSync(value, "utf8"));
    } catch (error) {
      ctx.addIssue({ code: "custom", message: `${inline ? "the policy" : value} is not a readable JSON object: ${(error as Error).message}` });
      return z.NEVER;
    }
  }, policyObject)
  .transform((partial): ApprovalPolicy => ({ ...DEFAULT_APPROVAL_POLICY, ...partial }));

export interface Judgement {
  verdict: Verdict;
  /** The risks behind the verdict: what the person is asked about, or why it was refused. */
  risks: Risk[];
}

/**
 * The verdict on an action with these risks, made on a page of `pageOrigin`: deny if any class is
 * denied, else ask if any asks, else allow. `trusted` says whether the person named an origin.
 */
export function judge(policy: ApprovalPolicy, risks: Risk[], pageOrigin: string | null, trusted: (origin: string) => boolean): Judgement {
  const verdictOf = (risk: Risk): Verdict => {
    const verdict = policy[risk.kind];
    if (verdict === "allow" && risk.unfenced) return "ask";
    if (verdict !== "allow" || !PROVENANCE.has(risk.kind)) return verdict;
    const origin = risk.origin ?? pageOrigin;
    return origin !== null && trusted(origin) ? "allow" : "ask";
  };
  for (const verdict of ["deny", "ask"] as const) {
    const deciding = risks.filter((risk) => verdictOf(risk) === verdict);
    if (deciding.length > 0) return { verdict, risks: deciding };
  }
  return { verdict: "allow", risks: [] };
}

/** What the person wrote when the chat assistant worded the task: only this names origins. */
export interface PersonWords {
  text: string;
  startUrl: string | null;
}

/**
 * The origins of a task: those the person named (`named`), and those the chat assistant chose in
 * its wording that the person's own message did not name (`proposed`), which the person is asked
 * about once, before the task first goes there. A task the person worded themselves has none proposed.
 */
export function taskOrigins(task: { text: string; start_url: string | null }, person: PersonWords | null): { named: Set<string>; proposed: Set<string> } {
  const worded = namedOrigins(task.text, task.start_url);
  if (!person) return { named: worded, proposed: new Set() };
  const named = namedOrigins(person.text, person.startUrl);
  return { named, proposed: new Set([...worded].filter((origin) => !named.has(origin))) };
}

/** The origins a person named for a task: its start page's and every http(s) address in its text. */
export function namedOrigins(text: string, startUrl: string | null): Set<string> {
  const origins = new Set<string>();
  for (const candidate of [startUrl ?? "", ...(text.match(/https?:\/\/[^\s"'<>)\]]+/gi) ?? [])]) {
    const origin = originOf(candidate);
    if (origin) origins.add(origin);
  }
  return origins;
}

/**
 * A password the person wrote in plain words (`password: hunter2`, `pw=…`, `密码是…`): `word`, then
 * a separator (`:`, `=`, `is`, `是`, `为`), then the value, quoted or up to the next space or
 * punctuation. Without a separator the word is not taken to give one ("type the password here").
 */
const PLAIN_PASSWORD = /(?:\b(?:password|passwd|passcode|pwd|pw)|密码|口令)(?:\s*[:=：]|\s+is\b|\s*(?:是|为))\s*(?:["'“‘「]([^"'”’」]+)["'”’」]|([^\s,，。;；"'”’」)]+))/giu;
/** Shorter values are too common to recognise in typed text. */
const MIN_PASSWORD = 3;

/** The passwords a person's text gives in plain words: typing one is as sensitive as typing a `%secret%`. */
export function plainPasswords(text: string): string[] {
  const found = [...text.matchAll(PLAIN_PASSWORD)].map((m) => (m[1] ?? m[2] ?? "").replace(/[.!?]+$/, ""));
  return [...new Set(found.filter((value) => value.length >= MIN_PASSWORD))];
}

/** scheme://host:port of an http(s) address; null for anything else. */
export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return /^https?:$/.test(parsed.protocol) ? parsed.origin : null;
  } catch {
    return null;
  }
}
