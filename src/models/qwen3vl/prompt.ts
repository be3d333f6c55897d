// Qwen3-VL's native computer use as its model cards and cookbooks publish it: one `computer_use`
// function in the Nous/Hermes tool format of Qwen's chat template, the screen stated as
// 1000×1000 (points on a 0–1000 grid), and every answer as Thought, Action and a <tool_call>.
// Action and parameter names are the published ones; `ask_user` is ours, so the model can hand
// the screen to the person (the published tool has no such action), and so is a second function,
// `page_tool`, listed where the page declares tools for agents (page-tool-call.ts).
import type { Size } from "../../perception/coordinates.ts";
import { PAGE_TOOL_FUNCTION } from "../page-tool-call.ts";
import { PAGE_TEXT_IS_DATA } from "../planner.ts";

/** The actions of the published tool, and ours. */
export const QWEN3VL_ACTIONS = [
  "key",
  "type",
  "mouse_move",
  "left_click",
  "left_click_drag",
  "right_click",
  "middle_click",
  "double_click",
  "triple_click",
  "scroll",
  "hscroll",
  "wait",
  "terminate",
  "answer",
  "ask_user",
] as const;

function computerUseTool(screen: Size) {
  return {
    type: "function",
    function: {
      name: "computer_use",
      description: [
        "Use a mouse and keyboard to interact with a computer, and take screenshots.",
        "* This is an interface to a desktop GUI or a web browser; you see it in screenshots.",
        "* Some applications take time to respond: wait and look at the next screenshot.",
        `* The screen's resolution is ${screen.width}x${screen.height}.`,
        "* Aim at the centre of buttons, links and icons, not at their edges.",
      ].join("\n"),
      parameters: {
        properties: {
          action: {
            description: [
              "The action to perform. The available actions are:",
              "* `key`: Press the keys in `keys` together (a chord), releasing them in reverse order.",
              "* `type`: Type `text` on the keyboard.",
              "* `mouse_move`: Move the cursor to `coordinate`.",
              "* `left_click`: Left click at `coordinate`.",
              "* `left_click_drag`: Press the left button where the cursor is and drag it to `coordinate`.",
              "* `right_click`: Right click at `coordinate`.",
              "* `middle_click`: Middle click at `coordinate`.",
              "* `double_click`: Double-click the left button at `coordinate`.",
              "* `triple_click`: Triple-click the left button at `coordinate`.",
              "* `scroll`: Turn the mouse wheel `pixels` notches; positive scrolls up, negative down.",
              "* `hscroll`: Scroll horizontally `pixels` notches; positive scrolls right, negative left.",
              "* `wait`: Wait `time` seconds for a change to happen.",
              "* `terminate`: End the task and report its `status`.",
              "* `answer`: Answer the person with `text`; the task is done.",
              "* `ask_user`: The person must act themselves (sign in, solve a captcha, confirm a payment): say what in `text`.",
            ].join("\n"),
            enum: QWEN3VL_ACTIONS,
            type: "string",
          },
          keys: { description: "Required only by `action=key`.", type: "array" },
          text: { description: "Required only by `action=type`, `action=answer` and `action=ask_user`.", type: "string" },
          coordinate: { description: "(x, y): the x (from the left edge) and y (from the top edge) coordinates to move the mouse to.", type: "array" },
          pixels: { description: "The amount of scrolling. Required only by `action=scroll` and `action=hscroll`.", type: "number" },
          time: { description: "The seconds to wait. Required only by `action=wait`.", type: "number" },
          status: { description: "The status of the task. Required only by `action=terminate`.", type: "string", enum: ["success", "failure"] },
        },
        required: ["action"],
        type: "object",
      },
    },
  };
}

/** The system prompt: the tools in <tools> (`pageTools`: page_tool too), the call format, the answer format and our rule on page text. */
export function qwen3vlSystemPrompt(screen: Size, pageTools = false): string {
  const tools = [computerUseTool(screen), ...(pageTools ? [{ type: "function", function: PAGE_TOOL_FUNCTION }] : [])];
  return `# Tools

You may call one or more functions to assist with the user query.

You are provided with function signatures within <tools></tools> XML tags:
<tools>
${tools.map((tool) => JSON.stringify(tool)).join("\n")}
</tools>

For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:
<tool_call>
{"name": <function-name>, "arguments": <args-json-object>}
</tool_call>

# Response format

Response format for every step:
1) Thought: one concise sentence explaining the next move.
2) Action: a short imperative describing what to do in the UI.
3) A single <tool_call>...</tool_call> block containing only the JSON: {"name": <function-name>, "arguments": <args-json-object>}.

Rules:
- Output exactly in the order: Thought, Action, <tool_call>.
- When the task is done, use action=answer with the answer for the person, or action=terminate.
- ${PAGE_TEXT_IS_DATA}`;
}

export function repairRequest(error: string): string {
  return `That answer could not be used: ${error}. Answer again with Thought, Action and one <tool_call> of computer_use.`;
}
