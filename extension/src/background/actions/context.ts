// What every action handler gets besides its parameters, and the shape of a handler.
import type { ActionName, ActionParams, ActionResult } from "../../../../src/protocol/extension.ts";
import type { Settings } from "../../shared/settings.ts";

export interface ActionContext {
  taskId: string;
  settings: Settings;
  /** Said in the result: a fallback taken (§4.6), a part left out (§4.5). */
  warnings: string[];
  /** Set when the action did only part of its work; the result's status becomes `partial`. */
  partial: boolean;
}

export type ActionHandler<N extends ActionName> = (params: ActionParams<N>, ctx: ActionContext) => Promise<ActionResult<N>>;
export type ActionHandlers = { [N in ActionName]: ActionHandler<N> };
