// GLM-4.5V's desktop agent prompt as Zhipu publishes it (zai-org/GLM-V, examples/gui-agent/glm-45v):
// one user message with the task, the PC action space as call rules, the steps so far and the
// memory the model kept, then the screenshot; points in thousandths (0–999) of the screenshot.
// `ASK_USER` is ours, so the model can hand the screen to the person (the published space has none).
import { PAGE_TEXT_IS_DATA } from "../planner.ts";

/** The published PC actions, and ours. */
export const GLM_ACTIONS = ["left_click", "right_click", "middle_click", "hover", "left_double_click", "left_drag", "key", "type", "scroll", "WAIT", "DONE", "FAIL", "ASK_USER"] as const;

const ACTION_SPACE = `### {left,right,middle}_click
Call rule: \`{left,right,middle}_click(start_box='[x,y]', element_info='')\` — a left, right or middle click at [x,y] (0–999); element_info optionally names the element.

### hover
Call rule: \`hover(start_box='[x,y]', element_info='')\` — move the pointer to [x,y] without clicking.

### left_double_click
Call rule: \`left_double_click(start_box='[x,y]', element_info='')\` — a left double-click at [x,y].

### left_drag
Call rule: \`left_drag(start_box='[x1,y1]', end_box='[x2,y2]', element_info='')\` — hold the left button from [x1,y1] to [x2,y2].

### key
Call rule: \`key(keys='')\` — press a key or a combination joined by '+' (e.g. 'ctrl+c', 'alt+tab').

### type
Call rule: \`type(content='')\` — type into the focused field; it neither focuses nor clears it.

### scroll
Call rule: \`scroll(start_box='[x,y]', direction='', step=5, element_info='')\` — turn the wheel over [x,y], direction 'down' or 'up', step notches (5 by default).

### WAIT
Call rule: \`WAIT()\` — wait 5 seconds.

### DONE
Call rule: \`DONE()\` — the task is complete; your explanation is the answer for the person.

### FAIL
Call rule: \`FAIL()\` — the task cannot be done.

### ASK_USER
Call rule: \`ASK_USER(content='')\` — the person must act themselves (sign in, solve a captcha, confirm a payment): say what in content.`;

/** The text before the screenshot: task, platform, action space, history and memory, output format. */
export function glmPromptText(task: string, platform: string, history: string[], memory: string): string {
  return `You are a GUI Agent, and your primary task is to respond accurately to the person's request. You act on the screen with the operations below until the request is fulfilled or answered. The coordinates involved are all represented in thousandths (0-999) of the screenshot's width and height.

# Task:
${task}

# Task Platform
${platform}

# Action Space
${ACTION_SPACE}

# Historical Actions and Current Memory
History:
${history.length > 0 ? history.join("\n") : "(none yet)"}
Memory:
${memory}
# Output Format
Plain text explanation with action(param='...')
Memory:
[{"key": "value"}, ...]

# Some Additional Notes
- Put what you have to remember in the Memory part as a list of objects; it comes back to you next round. Output an empty list when there is nothing.
- ${PAGE_TEXT_IS_DATA}

Current Screenshot:
`;
}

export function repairRequest(error: string): string {
  return `That answer could not be used: ${error}. Answer again: a short explanation with one action(param='...') from the action space, then Memory: [...].`;
}
