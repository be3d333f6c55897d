// The approval policy applied to what the hands are asked to do (seed 000 §9): each deed is
// classified — from its kind, its target element, the page's URL and what it carries — and runs,
// waits for the person, or is refused (DENIED). EasyAgentCU's own UI and the sites the domain
// lists close are kept off here too, and the origins the task has been on are remembered.
import type { Risk } from "../computers/computer.ts";
import { judge, originOf } from "../core/approval-policy.ts";
import { closedPhrase, type DomainList } from "../core/network-policy.ts";
import { raceAbort } from "../core/abort.ts";
import { AppError } from "../core/errors.ts";
import type { Progress } from "../core/progress.ts";
import { Secrets } from "../core/secrets.ts";
import type { Point } from "../perception/coordinates.ts";
import type { ScreenAction } from "../perception/resolve.ts";
import type { Screenshot } from "../perception/screenshot.ts";
import { actsOnPage, deedElement, localNetworkRisks, risksOfDeed, secretRisks, sensitiveSiteRisks, withNewOrigins } from "./classify.ts";
import type { ApprovalRequest, Deed, HandsOptions } from "./deeds.ts";
import { citedBy, followsPage, unnamedRisks } from "./provenance.ts";

export class Consent {
  /** The origins the task has been on. */
  private readonly visited = new Set<string>();
  /** Whether an origin is closed to the agent (EasyAgentCU's own server; a domain list), as judged once. */
  private readonly closed = new Map<string, { own: boolean; closedBy: DomainList | null }>();
  private readonly secrets: Secrets;

  constructor(private readonly options: HandsOptions) {
    this.secrets = new Secrets(options.config.secrets);
  }

  /**
   * Classifies the deed and applies the policy: returns once it may run, true when the person was
   * asked first; throws DENIED when the policy or the person refuses it.
   */
  async approve(deed: Deed, before: Screenshot, at: Point | null, progress: Progress): Promise<boolean> {
    const { computer, config } = this.options;
    const { signal } = progress;
    const action = deed.kind === "action" ? deed.action : deed.opens ? opening(deed.opens, deed.intent ?? "") : null;
    const on = deed.kind === "page" ? (deed.on ?? null) : null;
    const url = await computer.currentUrl();
    this.visit(url);
    const found = [...(await raceAbort(risksOfDeed(computer, action, on, (kind) => config.approvals[kind] !== "allow"), signal)), ...(deed.kind === "page" ? (deed.risks ?? []) : [])];
    const leads = [...found.flatMap((r) => r.origin ?? []), ...(action?.type === "navigate" ? [action.args.url] : [])];
    // The page the agent is on may be blocked (a redirect took it there): it may only leave.
    await raceAbort(this.keepOffClosed(leads, "opened"), signal);
    const acts = deed.kind === "page" ? deed.passive !== true : actsOnPage(deed.action);
    if (url) await raceAbort(this.keepOffClosed([url], acts ? "acted on" : "looked at"), signal);
    const secrets = secretRisks(action, on, this.secrets, this.options.passwords);
    // An element inside a frame of another origin acts toward that origin: a secret typed there
    // goes to it, and the person is shown which frame it is and where in it the action lands.
    const element = computer.web && found.length + secrets.length > 0 ? deedElement(action, on) : null;
    const frame = element ? await raceAbort(computer.web!.frameOf(element), signal) : null;
    const risks = [
      ...found,
      ...secrets.map((risk) => (frame ? { ...risk, origin: frame.origin } : risk)),
      ...sensitiveSiteRisks(config.network.sensitiveDomains, url, action, on, deed.kind === "page" && (deed.risks ?? []).length > 0),
      // An address the assistant chose, opened later than the start (a task with no start page): asked as at the start.
      ...(action?.type === "navigate" ? unnamedRisks(action.args.url, this.options.proposed, this.options.trusted) : []),
      ...(await raceAbort(localNetworkRisks(computer.gate, leads), signal)),
    ];
    const intent = deed.kind === "action" ? deed.intent : (deed.intent ?? "");
    // Measured through the frames, past each one's border and padding, which the element's own box leaves out.
    const box = frame?.box ?? (deed.kind === "action" ? deed.element?.box : null) ?? null;
    const cited = citedBy(action, on, [...leads, ...risks.flatMap((r) => r.origin ?? [])]);
    return this.decide(risks, { intent, action, url, shot: before, at, box, frameOrigin: frame?.origin ?? null }, progress, cited);
  }

  /**
   * Applies the policy to the risks: returns when the action may run (true when the person was
   * asked first), and opens the fence to the local origins it was allowed to reach; throws DENIED
   * when the policy or the person refuses it.
   */
  async decide(
    risks: Risk[],
    request: Omit<ApprovalRequest, "risks" | "fromPage">,
    progress: Progress,
    /** What the action carries (the text it types, the hosts it goes to): the person is told if it follows the page. */
    cited: readonly string[] = [],
  ): Promise<boolean> {
    const { computer, config, trusted, ask } = this.options;
    if (risks.length === 0) return false;
    const judged = judge(config.approvals, withNewOrigins(risks, this.visited), request.url ? originOf(request.url) : null, (origin) => trusted.has(origin));
    const what = judged.risks.map((r) => r.message).join(" and ");
    if (judged.verdict === "deny") throw new AppError("DENIED", `The approval policy does not allow this: it ${what}.`);
    if (judged.verdict === "ask") {
      const said = this.options.personText?.();
      const fromPage = said !== undefined && (await raceAbort(followsPage(computer, said, cited), progress.signal));
      if (!(await progress.hold(() => raceAbort(ask({ risks: judged.risks, ...request, fromPage }), progress.signal)))) throw new AppError("DENIED", `The person did not allow this: it ${what}.`);
    }
    for (const risk of risks) if (risk.kind === "local_network" && risk.origin) computer.gate?.permit(risk.origin);
    // The person allowed going where the assistant chose: from now on it counts as named by them.
    if (judged.verdict === "ask") for (const risk of risks) if (risk.origin && this.options.proposed?.has(risk.origin)) trusted.add(risk.origin);
    return judged.verdict === "ask";
  }

  /**
   * EasyAgentCU's own UI is never acted on, nor opened, and a site the domain lists close
   * (BLOCKED_DOMAINS, or outside ALLOWED_DOMAINS) never opened by an address, a link or a form the
   * agent sends (`opened`); on such a page it is already on
   * (a redirect took it there) it may look, scroll, wait and leave (`looked at`), not act on an
   * element, type or press keys (`acted on`). A browser attached over CDP and the person's
   * Chrome are not fenced, and the UI there could start tasks or press "I've done it". Judged once
   * per origin.
   */
  async keepOffClosed(urls: string[], how: "opened" | "acted on" | "looked at"): Promise<void> {
    const gate = this.options.computer.gate;
    if (!gate) return;
    for (const origin of new Set(urls.flatMap((url) => originOf(url) ?? []))) {
      let closed = this.closed.get(origin);
      if (closed === undefined) {
        const verdict = await gate.judge(origin);
        closed = { own: !verdict.allowed && verdict.own === true, closedBy: (!verdict.allowed && verdict.closedBy) || null };
        this.closed.set(origin, closed);
      }
      if (closed.own) throw new AppError("DENIED", `EasyAgentCU never acts on its own UI (${origin}).`);
      if (closed.closedBy && how === "opened") throw new AppError("DENIED", `The agent never opens ${origin}: it ${closedPhrase(closed.closedBy)}.`);
      if (closed.closedBy && how === "acted on") {
        throw new AppError("DENIED", `${origin} ${closedPhrase(closed.closedBy)}: the agent may only leave it, by opening another address or going back.`);
      }
    }
  }

  visit(url: string | null): void {
    const origin = url ? originOf(url) : null;
    if (origin) this.visited.add(origin);
  }
}

/** The navigation a page deed that opens `url` is classified as: the fence and the policy see no difference. */
function opening(url: string, intent: string): ScreenAction {
  return { type: "navigate", args: { url }, intent, requires_verification: false };
}
