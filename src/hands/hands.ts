// The hands of a task (seed 000 §4, seed 002 §2.5): every action that touches a screen, whoever
// decided it, goes through here. A click is pointer-checked first (by default every click the hit
// test can check, elsewhere those that ask; the hit test, else the model's look), then the action
// runs, the screen settles, the capture is compared with the screen before it — and with what the
// computer heard meanwhile that no screen shows (a download, a new tab or window, a dialog, a
// navigation, a request) — and a click without effect is repeated a few pixels off, a bounded
// number of times, unless it submits, pays, deletes, sends, downloads or uploads: that one is
// reported instead. A scroll without effect is tried once the other way, then reported
// (scroll-back.ts). What happened is data for the step record and the model's history, never a
// reason to fail the task. Before any of it, the action is classified and judged by the approval
// policy (consent.ts): it runs, waits for the person, or is refused (DENIED, which goes back to
// whoever decided it). What a deed is and what performing it answers: deeds.ts.
import type { Risk, StructuralEffect, UploadFile } from "../computers/computer.ts";
import { UNREPEATED } from "../core/approval-policy.ts";
import type { Config } from "../core/config.ts";
import { raceAbort } from "../core/abort.ts";
import { AppError } from "../core/errors.ts";
import type { Point, Size } from "../perception/coordinates.ts";
import type { ScreenAction } from "../perception/resolve.ts";
import { ScreenReader } from "../perception/screen-diff.ts";
import type { Screenshot } from "../perception/screenshot.ts";
import { actionPoint, type EffectSeen, type PersonInput, type StepEffect, type StepVerification, type Usage } from "../protocol/index.ts";
import { CheckLog, type StepChecks } from "./checks.ts";
import { localNetworkRisks, risksOfDeed, type DeedTarget } from "./classify.ts";
import { Consent } from "./consent.ts";
import { checkedUrl, execute } from "./execute.ts";
import { applyPersonInput } from "./person-input.ts";
import { checkPointer, type FrameOptions, type PointerLook } from "./pointer-check.ts";
import { unnamedRisks } from "./provenance.ts";
import { reversed, scrollNote } from "./scroll-back.ts";
import { WaitClock } from "./wait-clock.ts";

import type { Deed, HandsOptions, Performed, PerformOptions } from "./deeds.ts";

export type { PointerLook, FrameOptions, StepChecks, DeedTarget };
export type { ApprovalRequest, Deed, HandsOptions, Performed, PerformOptions } from "./deeds.ts";

/** What an attempt at an action showed, against the screen before it. */
interface Seen {
  after: Screenshot;
  ratio: number | null;
  changed: boolean;
  structural: boolean | null;
  seen: EffectSeen;
}

const CLICKS = new Set<ScreenAction["type"]>(["click", "double_click", "triple_click", "right_click"]);
const CAPTURE_ATTEMPTS = 3;
const CAPTURE_BACKOFF_MS = 150;
const NO_USAGE: Usage = { input_tokens: 0, output_tokens: 0 };
const EARLY_READ_MS = 50;
/** How often a screen that showed no effect yet is looked at again, while its program may still answer. */
const LATE_EFFECT_POLL_MS = 100;

/**
 * Only a left click is tried again when it shows no effect (seed 002 §2.5): a second double click
 * would open a slow program twice, a second right click its menu again.
 */
function triedAgain(action: ScreenAction): boolean {
  return action.type === "click" && action.args.button === "left";
}

/**
 * VERIFY_CLICKS: per action (`requested`), per decider (`clicks`) or globally. `auto` checks every
 * click the hit test can check (`hitTest`: a page, whose DOM says what is under the point), and
 * elsewhere only the clicks that ask: there only a model's look could check them, a model call per click.
 */
export function wantsPointerCheck(type: ScreenAction["type"], requested: boolean, mode: Config["verification"]["clicks"], hitTest: boolean): boolean {
  if (!CLICKS.has(type)) return false;
  switch (mode) {
    case "always":
      return true;
    case "never":
      return false;
    case "requested":
      return requested;
    case "auto":
      return requested || hitTest;
  }
}

export class Hands {
  /** The screen as last seen: what the next action's effect is measured against. */
  private latest: Screenshot | null = null;
  private readonly log = new CheckLog();
  private readonly consent: Consent;
  /** Reads the captures the effect check compares, each once. */
  private readonly screens = new ScreenReader();

  /** When the last action settled, and the end of a wait the next action is held for (wait-clock.ts). */
  private readonly clock = new WaitClock();
  /** The action under way on the computer, if any. */
  private acting: Promise<void> | null = null;

  constructor(private readonly options: HandsOptions) {
    this.consent = new Consent(options);
  }

  /** Opens the task's start page, if any, and takes the first look: nothing was there before to compare with. */
  async start(url: string | null): Promise<Screenshot> {
    const { computer, progress } = this.options;
    const { signal } = progress;
    if (url) {
      await raceAbort(this.consent.keepOffClosed([url], "opened"), signal);
      const risks = [...unnamedRisks(url, this.options.proposed, this.options.trusted), ...(await raceAbort(localNetworkRisks(computer.gate, [url]), signal))];
      if (risks.length > 0) await this.consent.decide(risks, { intent: `open ${url}`, action: null, url: null, shot: await this.capture(), at: null, box: null, frameOrigin: null }, progress);
      // Opening it acts on the screen as any action does: not once the task may not act any more.
      await this.act(() => computer.navigate(checkedUrl(url), progress));
      this.clock.settled();
    }
    this.consent.visit(await computer.currentUrl());
    return this.capture().finally(() => this.clock.returned());
  }

  /** A capture taken outside the hands (a fresh look before the model decides). */
  saw(shot: Screenshot): void {
    this.latest = shot;
  }

  /** The screen as the last action left it, or as last seen. */
  get screen(): Screenshot | null {
    return this.latest;
  }

  /** What the actions since the last call checked, together, for one step; null when none acted. */
  takeChecks(): StepChecks | null {
    return this.log.take();
  }

  perform(deed: Deed, options: PerformOptions): Promise<Performed> {
    return this.performDeed(deed, options).finally(() => this.clock.returned());
  }

  private async performDeed(deed: Deed, options: PerformOptions): Promise<Performed> {
    const { computer, config } = this.options;
    const progress = options.progress ?? this.options.progress;
    const { signal } = progress;
    progress.log(deed.kind === "action" ? `${deed.action.type} (${deed.intent})` : (deed.intent ?? "a page action"));
    const before = deed.kind === "action" && deed.fresh ? await this.capture(progress) : (this.latest ?? (await this.capture(progress)));
    const action = deed.kind === "action" ? deed.action : null;
    const target = action ? actionPoint(action) : null;
    // An attachment the message does not have is refused before anyone is asked about it.
    const file = action?.type === "upload" ? await raceAbort(this.fileOf(action.args.name), signal) : null;
    // The page as it is before the action, read while the policy judges the action (both only
    // read it); read again if anything comes between them (the person is asked, the pointer
    // checked) or the policy took long (a name looked up): what the page did meanwhile is not
    // the action's effect.
    const focusing = deed.kind === "action" && deed.focus === true;
    // A wait changes nothing itself: what the page does meanwhile is what the next look is for.
    const waits = action?.type === "wait";
    const early = focusing || waits ? null : this.watchStructure(signal);
    const judging = performance.now();
    const asked = await progress.phase("policy", () => this.consent.approve(deed, before, target, progress));
    let watched = asked || performance.now() - judging > (this.options.earlyReadMs ?? EARLY_READ_MS) ? null : early;
    // Read beside the policy's (its time is not the policy's): before anything touches the page, the pointer check's hover included.
    const { readsFirst } = options;
    if (readsFirst) await progress.phase("perception", () => readsFirst.catch(() => undefined));
    let offset: Point = { x: 0, y: 0 };
    let verification: StepVerification | null = null;
    let usage = NO_USAGE;
    const mode = options.clicks ?? config.verification.clicks;
    if (deed.kind === "action" && target && wantsPointerCheck(deed.action.type, options.requested, mode, this.canHitTest()) && this.canCheck(options.look)) {
      const checked = await progress.phase("verification", () =>
        checkPointer(target, deed.intent, deed.element ?? null, {
          computer,
          config,
          look: options.look,
          saveFrame: this.options.saveFrame,
          checksBefore: this.log.attempts,
          progress,
        }),
      );
      verification = checked.verification;
      usage = checked.usage;
      watched = null;
      if (!checked.point) {
        this.log.add({ verification, usage });
        return { kind: "unverified", verification, usage };
      }
      offset = { x: checked.point.x - target.x, y: checked.point.y - target.y };
    }
    if (focusing) {
      await progress.phase("action", () => this.clock.ready(progress, async () => undefined));
      await progress.phase("action", () => this.act(() => execute(deed.action, computer, before, progress, offset)));
      this.log.add({ verification, usage });
      return { kind: "acted", after: before, at: target ? { x: target.x + offset.x, y: target.y + offset.y } : null, effect: null, verification, usage };
    }

    const compare = (after: Screenshot, structure: StructuralEffect | null) =>
      progress.phase("effect", async (): Promise<Seen> => {
        const structural = structure ? hasEffect(structure) : null;
        // The structure already shows an effect: comparing pixels would only cost time.
        if (structural) return { after, ratio: null, changed: true, structural, seen: named(structure!) };
        const cursor = await computer.cursorPosition();
        const diff = await this.screens.diff(before, after, {
          pixelThreshold: config.effect.pixelThreshold,
          changeRatio: config.effect.changeRatio,
          ignorePoints: target ? [target, cursor] : [cursor],
        });
        const changed = diff.changed || (computer.minChangedPixels !== undefined && diff.changedPixels >= computer.minChangedPixels);
        return { after, ratio: round(diff.ratio), changed, structural, seen: changed ? "screen" : "none" };
      });

    let acted = 0;
    const attempt = async (jitter: Point, doing = action) => {
      // Held until the end of a wait before it, if any: the page as it was before the hold is not the one it acts on.
      const readBefore = (held: boolean) => (waits ? Promise.resolve(null) : progress.phase("effect", () => (held ? null : watched) ?? this.watchStructure(signal)));
      const watch = await progress.phase("action", () => this.clock.ready(progress, readBefore));
      watched = null;
      // Awaited, never raced: once the progress ends, the action stops where it acts, so that
      // nothing of it lands after whoever waits for it has been told it ended.
      await progress.phase("action", () =>
        this.act(async () => {
          if (deed.kind === "page") {
            progress.check();
            await deed.run(signal);
          }
          for (let n = 0; doing && deed.kind === "action" && n < (deed.repeat ?? 1); n++) {
            await execute(doing.type === "wait" ? this.clock.wait(doing) : doing, computer, before, progress, { x: offset.x + jitter.x, y: offset.y + jitter.y }, file);
          }
        }),
      );
      acted = performance.now();
      // A wait was its own settling: the screen after it is taken at once, as it is at its end less the lead (wait-clock.ts).
      if (!waits) {
        await progress.phase("settle", () => raceAbort(computer.settle(), signal));
        this.clock.settled();
      }
      const read = watch ? () => progress.phase("effect", () => raceAbort(watch(), signal)) : null;
      // Where the structure shows no effect, only the pixels can: the screen before is decoded while the capture is taken.
      const structural = read?.().then((effect) => {
        if (!hasEffect(effect)) this.screens.prepare(before);
        return effect;
      });
      if (!read) this.screens.prepare(before);
      const capturing = this.capture(progress);
      options.alongCapture?.(capturing);
      const [after, structure] = await Promise.all([capturing, structural ?? null]);
      const seen = await compare(after, structure);
      // The capture may have caught what the read, made beside it, came too early for (a tab that
      // opened): asked again, only when the pixels alone showed the effect, it names it.
      const unseen = seen.seen === "screen" && read ? (await read()).quiet.find((kind) => kind !== "request") : undefined;
      return { ...seen, ...(unseen ? { seen: unseen } : {}), read };
    };

    /**
     * The effect shown by `until`, if any: a program that draws its answer late, a page that posts
     * or downloads a moment later. `read` reads the structure again since the same start.
     */
    const lateChange = async (until: number, read: (() => Promise<StructuralEffect>) | null) => {
      while (performance.now() < until) {
        await progress.phase("settle", () => progress.sleep(LATE_EFFECT_POLL_MS));
        const late = await compare(await this.capture(progress), (await read?.()) ?? null);
        if (late.changed) return late;
      }
      return null;
    };

    // A click is taken for one without effect only once its program has had its time to answer.
    const lateMs = action !== null && CLICKS.has(action.type) ? computer.lateEffectMs : undefined;
    const click = async (jitter: Point): Promise<Seen> => {
      const first = await attempt(jitter);
      return first.changed || lateMs === undefined ? first : ((await lateChange(acted + lateMs, first.read)) ?? first);
    };
    let result = await click({ x: 0, y: 0 });
    let retries = 0;
    // What makes a click one never made twice, when it showed no effect: it may have had one all the same.
    const once = action && triedAgain(action) && !result.changed ? await this.unrepeatable(action, signal) : null;
    if (action && triedAgain(action) && !once) {
      for (const jitter of jitters(config.effect.jitterPx).slice(0, config.effect.clickRetries)) {
        if (result.changed) break;
        retries++;
        result = await click(jitter);
      }
    }
    let note = result.changed
      ? null
      : once
        ? `not clicked again: it ${once.message}, and such a click is never repeated; it may have taken effect without showing it — check before doing it again`
        : retries > 0
          ? `retried ${retries} times a few pixels off`
          : null;
    if (action?.type === "scroll" && !result.changed) {
      result = await attempt({ x: 0, y: 0 }, reversed(action));
      note = scrollNote(action, result.changed);
    }
    const effect: StepEffect = { changed: result.changed, ratio: result.ratio, structural: result.structural, retries, note, seen: result.seen };
    this.consent.visit(await computer.currentUrl());
    this.log.add({ effect, verification, usage, after: result.after });
    return { kind: "acted", after: result.after, at: target ? { x: target.x + offset.x, y: target.y + offset.y } : null, effect, verification, usage };
  }

  /**
   * Resolves once no action is under way on the computer: after Stop, once what was being done
   * has stopped where it acted (a cancelled action ends at its next keystroke or step).
   */
  async idle(): Promise<void> {
    await this.acting?.catch(() => undefined);
  }

  private async act(work: () => Promise<void>): Promise<void> {
    await this.options.beforeActing?.();
    const acting = work();
    this.acting = acting;
    try {
      await acting;
    } finally {
      if (this.acting === acting) this.acting = null;
    }
  }

  private fileOf(name: string): Promise<UploadFile> {
    const { uploadFile } = this.options;
    if (!uploadFile) return Promise.reject(new AppError("ACTION_FAILED", "This task has no attachments to upload."));
    return uploadFile(name);
  }

  /**
   * The class that keeps a click from being made again (UNREPEATED), if its target is in one:
   * classified anew here, on the way to a retry only, as the policy's reading may have left out
   * what it did not need (a desktop caption, read when the policy asks about presses).
   */
  private async unrepeatable(action: ScreenAction, signal: AbortSignal): Promise<Risk | null> {
    const risks = await raceAbort(risksOfDeed(this.options.computer, action, null), signal);
    return risks.find((risk) => UNREPEATED.has(risk.kind)) ?? null;
  }

  /** Starts reading the page's structure before an action; null where the computer cannot tell. */
  private watchStructure(signal: AbortSignal): Promise<(() => Promise<StructuralEffect>) | null> {
    const { computer } = this.options;
    if (!computer.watchStructure) return Promise.resolve(null);
    const watching = raceAbort(computer.watchStructure(), signal);
    // Read ahead of the action, it is not awaited when the action does not run.
    watching.catch(() => undefined);
    return watching;
  }

  /**
   * Judges a whole call of a risky desktop tool (seed 003's risk levels) before it runs: returns
   * when it may, after asking the person if the policy says so; throws DENIED otherwise.
   */
  async approveCall(risks: Risk[], intent: string, progress = this.options.progress): Promise<void> {
    const shot = this.latest ?? (await this.capture(progress));
    await this.consent.decide(risks, { intent, action: null, url: await this.options.computer.currentUrl(), shot, at: null, box: null, frameOrigin: null }, progress);
  }

  /**
   * Whether anything can check a pointer: the computer's hit test, or a model that looks, as
   * VERIFY_METHOD allows. Where nothing can, a click is not checked rather than never made.
   */
  private canCheck(look: PointerLook | null): boolean {
    return this.canHitTest() || (this.options.config.verification.method !== "hit_test" && look !== null);
  }

  /** Whether the computer's hit test may check a pointer, as VERIFY_METHOD allows. */
  private canHitTest(): boolean {
    return this.options.config.verification.method !== "model" && this.options.computer.holdTarget !== undefined;
  }

  /**
   * The person's own click, wheel or keys on the live view while the screen is theirs: nothing
   * judges or checks them. `frame`: the size of the live frame they acted on.
   */
  async personAct(input: PersonInput, frame: Size | null): Promise<void> {
    // Points are measured in the screenshot's pixels: before the first look, one is taken.
    const shot = this.latest ?? (await this.capture());
    await applyPersonInput(this.options.computer, input, frame, { width: shot.width, height: shot.height });
  }

  /**
   * The screen now. An action may have closed the page it acted on (a popup's last click), so a
   * capture that fails is tried again once the computer has found its screen again: the action
   * happened, and must not be reported as failed.
   */
  async capture(progress = this.options.progress): Promise<Screenshot> {
    const { computer } = this.options;
    for (let attempt = 1; ; attempt++) {
      try {
        const shot = await progress.phase("capture", () => raceAbort(computer.screenshot(), progress.signal));
        this.latest = shot;
        return shot;
      } catch (error) {
        if (attempt >= CAPTURE_ATTEMPTS || !(error instanceof AppError) || error.code !== "ACTION_FAILED") throw error;
        await progress.sleep(CAPTURE_BACKOFF_MS * attempt);
      }
    }
  }
}

/** What a structural effect shows first; a request only when nothing else does. */
function named(effect: StructuralEffect): EffectSeen {
  const unseen = effect.quiet.find((kind) => kind !== "request");
  return unseen ?? (effect.mutations > 0 || effect.scrolled ? "structure" : "request");
}

function hasEffect(effect: StructuralEffect): boolean {
  return effect.mutations > 0 || effect.scrolled || effect.quiet.length > 0;
}

/** Points around the target, in screenshot pixels: right-down, left-up, right-up, left-down. */
function jitters(px: number): Point[] {
  return [
    { x: px, y: px },
    { x: -px, y: -px },
    { x: px, y: -px },
    { x: -px, y: px },
  ];
}

function round(ratio: number): number {
  return Math.round(ratio * 10_000) / 10_000;
}
