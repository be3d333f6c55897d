// Resolves a model's action once: its points and scroll amounts, named in the pixels of the image
// the model saw, become screenshot pixels — the one space the hands and every computer take.
import type { Action, FinalAction } from "../protocol/index.ts";
import { convert, type Point, type Spaces } from "./coordinates.ts";

/** An action that touches the computer, its points and scroll amounts in screenshot pixels. */
export type ScreenAction = Exclude<Action, FinalAction>;

export function resolveAction(action: ScreenAction, spaces: Spaces): ScreenAction {
  const at = (x: number, y: number): Point => convert({ x, y }, spaces, "model", "screenshot");
  switch (action.type) {
    case "click":
    case "double_click":
    case "triple_click":
    case "right_click":
    case "move":
      return { ...action, args: { ...action.args, ...at(action.args.x, action.args.y) } } as ScreenAction;
    case "drag": {
      const from = at(action.args.x, action.args.y);
      const to = at(action.args.end_x, action.args.end_y);
      return { ...action, args: { x: from.x, y: from.y, end_x: to.x, end_y: to.y } };
    }
    case "scroll": {
      const { screenshot, model } = spaces;
      return {
        ...action,
        args: {
          ...at(action.args.x, action.args.y),
          scroll_x: Math.round((action.args.scroll_x * screenshot.width) / model.width),
          scroll_y: Math.round((action.args.scroll_y * screenshot.height) / model.height),
        },
      };
    }
    case "upload": {
      const { x, y } = action.args;
      return x === undefined || y === undefined ? action : { ...action, args: { ...action.args, ...at(x, y) } };
    }
    default:
      return action;
  }
}
