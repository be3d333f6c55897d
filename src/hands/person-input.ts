// The person's own input while they have the screen (a takeover, or a task waiting for them to
// act): clicks, wheel, keys and text from the live view go straight to the computer. It is the
// person acting, so nothing judges or checks it; points are pixels of the live frame they clicked
// on, mapped onto the screen the computer's actions are measured in.
import type { Computer } from "../computers/computer.ts";
import { scalePoint, type Point, type Size } from "../perception/coordinates.ts";
import type { PersonInput } from "../protocol/index.ts";

/** `frame`: the live frame the person saw; `screen`: the computer's screenshot size. */
export async function applyPersonInput(computer: Computer, input: PersonInput, frame: Size | null, screen: Size): Promise<void> {
  const onScreen = (x: number, y: number): Point => {
    const point = frame ? scalePoint({ x, y }, frame, screen) : { x, y };
    return { x: Math.min(Math.max(point.x, 0), screen.width - 1), y: Math.min(Math.max(point.y, 0), screen.height - 1) };
  };
  switch (input.kind) {
    case "click": {
      const at = onScreen(input.x, input.y);
      if (input.double) await computer.doubleClick(at.x, at.y);
      else await computer.click(at.x, at.y, input.button);
      return;
    }
    case "scroll": {
      const at = onScreen(input.x, input.y);
      await computer.scroll(at.x, at.y, input.delta_x, input.delta_y);
      return;
    }
    case "key":
      await computer.keypress(input.keys);
      return;
    case "type":
      await computer.type(input.text);
      return;
  }
}
