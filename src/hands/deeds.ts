// What the hands are asked to do and what they answer: a deed (a computer action, or another change
// to the page), how it was performed, and what a task gives its hands to work with.
import type { Computer, ElementTarget, Risk, UploadFile } from "../computers/computer.ts";
import type { Config } from "../core/config.ts";
import type { Progress } from "../core/progress.ts";
import type { Point } from "../perception/coordinates.ts";
import type { ScreenAction } from "../perception/resolve.ts";
import type { Screenshot } from "../perception/screenshot.ts";
import type { FrameRef, StepEffect, StepVerification, Usage } from "../protocol/index.ts";
import type { DeedTarget } from "./classify.ts";
import type { FrameOptions, PointerLook } from "./pointer-check.ts";

/** What the hands are asked to do. */
export type Deed =
  /**
   * A computer action at screenshot pixels; `element`: the element a click is meant for, when
   * known; `repeat`: keys pressed several times, checked once; `focus`: a click that only puts
   * the focus where typing follows — its pointer is checked, its effect is the typing's, measured
   * from the screen before both; `fresh`: the screen may have changed since it was last seen (the
   * element was scrolled into view), so take it anew first.
   */
  | { kind: "action"; action: ScreenAction; intent: string; element?: ElementTarget | null; repeat?: number; focus?: boolean; fresh?: boolean }
  /**
   * Anything else that changes the page (fill a field, go back): run, then settle, capture and
   * compare; `on`: the element it acts on and how, for the approval policy; `passive`: it only
   * scrolls or leaves the page, and touches nothing on it; `opens`: the address it opens (a new
   * tab at it), judged as opening it in the tab would be; `risks`: what it risks by its own account,
   * where no element or address says (a page's own tool, which may submit).
   */
  | { kind: "page"; run: (signal: AbortSignal) => Promise<void>; intent?: string; on?: DeedTarget; passive?: boolean; opens?: string; risks?: Risk[] };

export type Performed =
  | {
      kind: "acted";
      after: Screenshot;
      /** Where the action happened (after any correction), in screenshot pixels. */
      at: Point | null;
      /** Null for a focusing click, whose effect the typing after it shows. */
      effect: StepEffect | null;
      verification: StepVerification | null;
      usage: Usage;
    }
  /** The pointer could not be placed on the target: nothing was clicked. */
  | { kind: "unverified"; verification: StepVerification; usage: Usage };

export interface PerformOptions {
  /** The model's look at the pointer, when the driver's model can look. */
  look: PointerLook | null;
  /** Whether the decider asked for the pointer to be checked (`requires_verification`). */
  requested: boolean;
  /** The decider's own VERIFY_CLICKS, overriding the configured one. */
  clicks?: Config["verification"]["clicks"] | null;
  /**
   * The operation the deed is part of, when it is tighter than the task (a tool call, with its
   * deadline held while the person decides): the action stops where it acts when it ends.
   */
  progress?: Progress;
  /**
   * A read of the page the action would change (what a click is aimed at, described for Run
   * again): it runs beside the policy's read, and nothing touches the page before it ends.
   */
  readsFirst?: Promise<unknown>;
  /**
   * Called as the capture of the screen after an attempt at the action starts: what the decider
   * reads of the page for its next look, read beside it, and kept if that capture is the screen after.
   */
  alongCapture?: (capture: Promise<Screenshot>) => void;
}

/** An action the policy says to ask about: the screen before it, and where on it the action lands. */
export interface ApprovalRequest {
  risks: Risk[];
  intent: string;
  action: ScreenAction | null;
  url: string | null;
  shot: Screenshot;
  at: Point | null;
  box: ElementTarget["box"];
  /**
   * The action follows the page, not the person: what it types, or the host of an address it opens
   * or sends to, is not in what the person wrote, and the page holds it (`followsPage`).
   */
  fromPage: boolean;
  /** The origin of the frame inside the page that the action lands in, when it is not the page's own. */
  frameOrigin: string | null;
}

export interface HandsOptions {
  computer: Computer;
  config: Config;
  /** The task's progress: its Stop, and the timing of the phases of the step being made. */
  progress: Progress;
  /** Stores a capture of the current step's pointer checks. */
  saveFrame(shot: Screenshot, options: FrameOptions): Promise<FrameRef>;
  /**
   * The origins the person named for the task: there the policy's allow stands for every class.
   * An origin of `proposed` joins them once the person allows the task to go there.
   */
  trusted: Set<string>;
  /** Origins the chat assistant chose for the task that the person did not name: the first visit asks. */
  proposed?: ReadonlySet<string>;
  /** What the person wrote for the task so far (its text, start page, their follow-ups): what an action carries beyond it may come from the page. */
  personText?: () => string;
  /** Passwords the task's text gives in plain words (core/approval-policy.ts `plainPasswords`): typing one is `sensitive_field`. */
  passwords?: readonly string[];
  /**
   * Asked before each action touches the screen; throws when the task may not act any more (another
   * worker took it up), and the action is not done.
   */
  beforeActing?(): Promise<void>;
  /** Asks the person about an action; true when they allow it. */
  ask(request: ApprovalRequest): Promise<boolean>;
  /** How long the policy may take for the structure read beside it to stand: a few frames by default. */
  earlyReadMs?: number;
  /**
   * The file of the message's attachment an upload names; throws ACTION_FAILED, naming the
   * attachments there are, for a name the message did not attach. Without it, nothing is uploaded.
   */
  uploadFile?(name: string): Promise<UploadFile>;
}
