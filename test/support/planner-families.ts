// Each planner family's click and last answer in its own wire format, for the stories and the
// benchmark that run the same clicks through every family: the scripted server answers a family's
// requests with them, at points of the 1280×800 screen.
import type { ConfigInput, DeepPartial } from "../../src/core/config.ts";
import type { ModelChoice } from "../../src/protocol/index.ts";
import { planningText, type RecordedRequest, type Reply, type Responder } from "./scripted-model.ts";

export interface PlannerFamily {
  /** The task's own choice of model. */
  choice: ModelChoice;
  /** Which of the scripted server's requests are this family's for the task (the tasks of one family run one at a time). */
  requests(task: string): (r: RecordedRequest) => boolean;
  click(at: { x: number; y: number }): Reply | Responder;
  finish(): Reply;
}

const WIDTH = 1280;
const HEIGHT = 800;

let n = 0;
const claude = (content: unknown[], stop: "tool_use" | "end_turn"): Reply => ({
  message: { id: `msg_${++n}`, type: "message", role: "assistant", model: "claude-test", content, stop_reason: stop, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } },
});
const openai = (output: unknown[]): Reply => ({ message: { id: `resp_${++n}`, object: "response", status: "completed", output, usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } } });
const gemini = (parts: unknown[]): Reply => ({ message: { candidates: [{ content: { role: "model", parts }, finishReason: "STOP" }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5 } } });
/** A point of the 1280×800 screen in thousandths, as Gemini and GLM-4.5V name it. */
const thousandths = (at: { x: number; y: number }) => ({ x: Math.round((at.x / WIDTH) * 1000), y: Math.round((at.y / HEIGHT) * 1000) });
const chatTask = (task: string) => (r: RecordedRequest) => r.path.endsWith("/chat/completions") && planningText(r).includes(`Task: ${task}`);

/** Set-of-Mark answers by number: the listed element whose centre is nearest the point. */
const markNearest =
  (at: { x: number; y: number }): Responder =>
  (r) => {
    const marks = [...planningText(r).matchAll(/\[(\d+)\][^\n]* at \((\d+), (\d+)\)/g)].map((m) => ({ id: Number(m[1]), d: Math.hypot(Number(m[2]) - at.x, Number(m[3]) - at.y) }));
    const nearest = marks.sort((a, b) => a.d - b.d)[0];
    return { answer: { thought: "", progress: "Pressing it", action: "click", element_id: nearest?.id ?? 0 } };
  };

export const PLANNER_FAMILIES = {
  "JSON planner": {
    choice: { provider: "qwen", name: "scripted-vl" },
    requests: chatTask,
    click: (at) => ({ answer: { thought: "", progress: "Pressing it", action: { type: "click", args: at, intent: "the button", requires_verification: false } } }),
    finish: () => ({ answer: { thought: "", progress: "Done", action: { type: "done", args: { answer: "Pressed." } } } }),
  },
  "Set-of-Mark": {
    choice: { provider: "som", name: "scripted-vl" },
    requests: chatTask,
    click: markNearest,
    finish: () => ({ answer: { thought: "", progress: "Done", action: "done", answer: "Pressed." } }),
  },
  "UI-TARS": {
    choice: { provider: "uitars", name: "ui-tars-test" },
    requests: chatTask,
    // UI-TARS 1.0 points on a 0–1000 grid.
    click: (at) => ({ text: `Thought: Press it.\nAction: click(start_box='(${Math.round((at.x / WIDTH) * 1000)},${Math.round((at.y / HEIGHT) * 1000)})')` }),
    finish: () => ({ text: "Thought: Done.\nAction: finished(content='Pressed.')" }),
  },
  OpenCUA: {
    choice: { provider: "opencua", name: "opencua-test" },
    requests: chatTask,
    click: (at) => ({ text: `## Thought:\nPress it.\n## Action:\nPress it.\n## Code:\n\`\`\`python\npyautogui.click(x=${at.x / WIDTH}, y=${at.y / HEIGHT})\n\`\`\`` }),
    finish: () => ({ text: "## Thought:\nDone.\n## Action:\nFinish.\n## Code:\n```python\ncomputer.terminate(status='success', answer='Pressed.')\n```" }),
  },
  Anthropic: {
    choice: { provider: "anthropic", name: "claude-test" },
    // The task's conversation carries the computer tool; Claude's look at the pointer does not.
    requests: () => (r) => r.path.endsWith("/v1/messages") && r.body.tools !== undefined,
    click: (at) => claude([{ type: "text", text: "Pressing it." }, { type: "tool_use", id: `toolu_${++n}`, name: "computer", input: { action: "left_click", coordinate: [at.x, at.y] } }], "tool_use"),
    finish: () => claude([{ type: "text", text: "Pressed." }], "end_turn"),
  },
  OpenAI: {
    choice: { provider: "openai", name: "computer-use-preview" },
    requests: () => (r) => r.path.endsWith("/responses"),
    click: (at) => openai([{ type: "computer_call", id: `cu_${++n}`, call_id: `call_${n}`, action: { type: "click", button: "left", ...at }, pending_safety_checks: [], status: "completed" }]),
    finish: () => openai([{ type: "message", id: `msg_${++n}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: "Pressed.", annotations: [] }] }]),
  },
  Gemini: {
    choice: { provider: "gemini", name: "gemini-3.5-flash" },
    requests: () => (r) => r.path.endsWith(":generateContent"),
    click: (at) => gemini([{ functionCall: { name: "click", args: { ...thousandths(at), intent: "Pressing it." } } }]),
    finish: () => gemini([{ text: "Pressed." }]),
  },
  "GLM-4.5V": {
    choice: { provider: "qwen", name: "glm-4.5v" },
    // GLM's published prompt heads the task "# Task:".
    requests: (task) => (r) => r.path.endsWith("/chat/completions") && planningText(r).includes(`# Task:\n${task}`),
    click: (at) => {
      const { x, y } = thousandths(at);
      return { text: `I will press it. <|begin_of_box|>left_click(start_box='[${x}, ${y}]', element_info='the button')<|end_of_box|>\nMemory:\n[]` };
    },
    finish: () => ({ text: "Pressed. <|begin_of_box|>DONE()<|end_of_box|>\nMemory:\n[]" }),
  },
} satisfies Record<string, PlannerFamily>;

/** Every family's provider pointed at the scripted server, UI-TARS on its 0–1000 grid. */
export function everyFamilyAt(baseUrl: string): DeepPartial<ConfigInput> {
  const at = { baseUrl, apiKey: "test-key" };
  return { model: { uitarsVersion: "1.0" }, providers: { qwen: at, som: at, uitars: at, opencua: at, anthropic: at, openai: at, gemini: at } };
}
