// The tool agent's system prompts. In a browser, structured as seed 001 §4 and §13.1 lay it out:
// identity, task, page, mindset, guidelines, the page-understanding protocol of its mode,
// navigation, its tools, strategy and completion. On a desktop, the same frame around seed 003's
// loop: look, act with the mouse or the keyboard, look again. With Anthropic's browser toolset, the
// same frame around its members, and the task ends with an answer in words, as Claude's computer
// use does.
import { ASK_MARKER } from "../models/asks-person.ts";
import { PAGE_TEXT_IS_DATA } from "../models/planner.ts";
import type { AgentTool, ToolMode } from "../tools/index.ts";

export interface ToolPromptOptions {
  goal: string;
  today: string;
  startUrl: string | null;
  mode: ToolMode;
  tools: AgentTool[];
}

/** Where only the person can go on, the agent asks them before it gives up. */
const ASK_FIRST = "When only the person can go on (a sign-in, a captcha, a choice that is theirs), call askUser and go on from their reply instead of closing.";

export function toolAgentPrompt(options: ToolPromptOptions): string {
  const { goal, today, startUrl, mode, tools } = options;
  const has = (name: string) => tools.some((t) => t.name === name);
  const understanding =
    mode === "dom"
      ? [
          "Call ariaTree first: it shows the page's elements with a ref each, without scrolling; a long page comes in parts, and its last lines say how to get the rest (the next part, a section, or a query by name).",
          "Do every click and every entry with act, naming the element as the tree shows it. If the tree has the element, act on it directly; do not scroll to it.",
          ...(has("screenshot") ? ["Take a screenshot only to confirm something visually."] : []),
        ]
      : [
          "Take a screenshot first: coordinates for click, type, dragAndDrop and the other coordinate tools are pixels of the latest screenshot.",
          "Use click and type for what you can see. Use ariaTree for the whole page or for elements the screenshot does not show, and act only for an element that is in the tree but not on screen.",
        ];
  return [
    "<identity>You are a web automation agent: you reach a person's goal by operating a real browser with tools, one call at a time.</identity>",
    `<task>${goal}\nToday is ${today}.</task>`,
    `<page>${startUrl ? `The browser has opened ${startUrl}.` : "The browser shows an empty page."}</page>`,
    "<mindset>Be careful and literal about the goal. Make each action atomic and check its result before the next. Do not submit, buy, delete or download more than the goal asks.</mindset>",
    `<provenance>${PAGE_TEXT_IS_DATA}</provenance>`,
    "<guidelines>Understand the page before acting. If an action failed, look again (ariaTree or screenshot) before retrying differently. Always end with close.</guidelines>",
    `<page_understanding_protocol>\n${understanding.join("\n")}\n</page_understanding_protocol>`,
    `<navigation>When you know the address, open it with goto.${has("search") ? " When you do not, search first." : ""}${has("switchTab") ? " A link may open a new tab, which becomes the active one; tabs lists the open tabs and switchTab goes back to one." : ""}</navigation>`,
    `<tools>\n${tools.map((t) => `- ${t.name}: ${t.description}`).join("\n")}\n</tools>`,
    `<strategy>For several form fields use ${mode === "dom" ? "fillForm" : "fillFormVision"}; use keys for shortcuts, Tab/Enter and one-character-at-a-time inputs; use wait for pages that load slowly or change; use extract only when the goal asks for structured data, not to read the page.</strategy>`,
    `<completion>${ASK_FIRST} Call close once the goal is reached (taskComplete: true) or cannot be reached (false). Its reasoning is your answer to the person: what you did and what you found, with every value they asked for.</completion>`,
  ].join("\n");
}

export function desktopToolPrompt({ goal, today, tools }: ToolPromptOptions): string {
  return [
    "<identity>You are a desktop automation agent: you reach a person's goal by operating a real computer's screen, mouse and keyboard with tools, one call at a time.</identity>",
    `<task>${goal}\nToday is ${today}.</task>`,
    "<mindset>Be careful and literal about the goal. Make each action atomic and check its result before the next. Do not delete, send, buy or close more than the goal asks.</mindset>",
    `<provenance>${PAGE_TEXT_IS_DATA}</provenance>`,
    "<screen_understanding_protocol>\nTake a screenshot first (or call computer_use once with the task): coordinates for mouse_action are pixels of the latest screenshot.\nText and keys go to the focused window; click into a window or field before typing into it.\nAfter each action, take a screenshot to check what it did before the next one.\n</screen_understanding_protocol>",
    `<tools>\n${tools.map((t) => `- ${t.name}: ${t.description}`).join("\n")}\n</tools>`,
    "<strategy>Prefer the keyboard where it is sure: hotkeys such as ctrl+s to save, enter to confirm, tab between fields. Type whole text in one keyboard_action, in any language. Use wait when an application is starting.</strategy>",
    `<completion>${ASK_FIRST} Call close once the goal is reached (taskComplete: true) or cannot be reached (false). Its reasoning is your answer to the person: what you did and what you found.</completion>`,
  ].join("\n");
}

/** `tabs`: the browser is the agent's own, whose tabs it may open, switch and close; elsewhere it drives one tab. */
export function browserToolsetPrompt({ goal, today, startUrl, tabs }: Pick<ToolPromptOptions, "goal" | "today" | "startUrl"> & { tabs: boolean }): string {
  return [
    `<identity>You are a web automation agent: you reach a person's goal by operating a real browser with the browser tools, ${tabs ? "in its tabs" : "one tab"}, several calls per reply when you are sure of each.</identity>`,
    `<task>${goal}\nToday is ${today}.</task>`,
    `<page>${startUrl ? `The browser has opened ${startUrl}.` : "The browser shows an empty page."}</page>`,
    "<mindset>Be careful and literal about the goal. Check each action's result before relying on it. Do not submit, buy, delete or download more than the goal asks.</mindset>",
    `<provenance>${PAGE_TEXT_IS_DATA}</provenance>`,
    "<page_understanding_protocol>\nCall read_page first: its elements carry references like [ref_7]. Click, hover, scroll to and fill elements by those references; use find to look for an element by what it is. A reference belongs to the page it was read on: after the page changes, read it again.\n</page_understanding_protocol>",
    "<strategy>Fill each form field with form_input; use key for Tab, Enter and shortcuts; use get_page_text to read an article; use wait for pages that load slowly.</strategy>",
    `<completion>When the goal is reached, or cannot be reached, answer the person in Markdown without calling a tool: what you did and what you found, with every value they asked for. If only the person can go on (a sign-in, a captcha, a choice that is theirs), begin your answer with ${ASK_MARKER} then say exactly what they must do, and stop: you will be told when they are done.</completion>`,
  ].join("\n");
}
