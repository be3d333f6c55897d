// The scripted planner answers the step benchmarks share: our planner loop (backbone.ts) and the
// bare playwright-core loop (bare-loop.ts) act the same steps on form.html.
import { act, type Reply } from "../test/support/scripted-model.ts";

/** `count` actions cycling through click, type, keypress, move and scroll, then done. */
export function stepScript(count: number): Reply[] {
  const kinds = [
    act("click", { x: 200, y: 130 }),
    act("type", { text: "abc" }),
    act("keypress", { keys: ["Backspace"] }),
    act("move", { x: 600, y: 400 }),
    act("scroll", { x: 600, y: 400, scroll_y: 200 }),
  ];
  return [...Array.from({ length: count }, (_, i) => kinds[i % kinds.length]!), act("done", { answer: "done" })];
}

/** The action type a scripted reply answers with. */
export function actionType(reply: Reply): string {
  return (reply as { answer: { action: { type: string } } }).answer.action.type;
}
