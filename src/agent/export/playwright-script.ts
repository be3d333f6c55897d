// A finished browser task as a Playwright test (@playwright/test) a developer can run and edit:
// each step done again as it was done — on its element by the locator the page gave for it
// (re-written from the whitelist parse, never copied as code), else at its point with the mouse —
// with the step's words as a comment. A desktop's steps are X11 input a page script cannot carry.
import { parseLocatorCode } from "../../computers/browser/locator-code.ts";
import { normalizeChord, normalizeKey } from "../../protocol/keys.ts";
import { AppError } from "../../core/errors.ts";
import type { Action, RefAction } from "../../protocol/index.ts";
import type { Trajectory, TrajectoryStep, TrajectoryTarget } from "./trajectory.ts";

type Value = ReturnType<typeof parseLocatorCode>[number]["args"][number];

/** The script, or NOT_EXPORTABLE for a task whose steps are not a web page's. */
export function playwrightScript(trajectory: Trajectory): string {
  const { task } = trajectory;
  if (task.computer === "desktop") {
    throw new AppError(
      "NOT_EXPORTABLE",
      `Task ${task.id} drove a desktop: its steps are clicks and keys on X11 windows, which a Playwright script (a browser page's) cannot carry. Export it as json instead (format=json): it has every step's action, point and screenshot.`,
    );
  }
  const scale = trajectory.device_scale_factor;
  const size = trajectory.steps.find((s) => s.screenshot)?.screenshot;
  const lines = [
    `// Exported by EasyAgentCU from task ${task.id}, ${task.status}: ${oneLine(task.text)}`,
    "// Each step is done again as the agent did it: on its element by the locator the page gave,",
    "// else at its point on a page of the recorded size. Run it with `npx playwright test`.",
    'import { test } from "@playwright/test";',
    "",
    ...(size ? [`test.use({ viewport: { width: ${Math.round(size.width / scale)}, height: ${Math.round(size.height / scale)} } });`, ""] : []),
    `test(${JSON.stringify(oneLine(task.text))}, async ({ page }) => {`,
    ...(task.start_url ? [`  await page.goto(${JSON.stringify(task.start_url)});`] : []),
    ...trajectory.steps.flatMap((step) => stepLines(step, scale).map((line) => `  ${line}`)),
    // What the last step set off (a form's post, a navigation) ends before the page closes, as the agent's steps settled.
    '  await page.waitForLoadState("networkidle");',
    "});",
    "",
  ];
  return lines.join("\n");
}

function stepLines(step: TrajectoryStep, scale: number): string[] {
  const head = `// ${step.index}. ${oneLine(step.text || step.tool?.label || step.action?.type || "step")}`;
  if (step.kind === "final") return [head, ...(step.action?.type === "needs_user" ? ["// The agent asked the person to act here; a script cannot."] : [])];
  if (!step.carried_out) return [`${head} (not carried out, so not done again)`];
  if (step.tool?.looks_only) return [];
  const byElement = step.targets.filter((t) => t.action !== null);
  if (byElement.length > 0) return [head, ...byElement.map((t) => onElement(t, t.action!))];
  if (!step.action) return [`${head} — ${step.tool?.name ?? "this step"} has no Playwright form; do it by hand here.`];
  return [head, ...actionLines(step.action, step.point, step.targets[0] ?? null, scale)];
}

/** A tool agent's action on an element, by its locator. */
function onElement(target: TrajectoryTarget, action: RefAction): string {
  const at = locatorOf(target);
  switch (action.kind) {
    case "click":
      return `await ${at}.click();`;
    case "fill":
      return `await ${at}.fill(${JSON.stringify(action.value)});`;
    case "press":
      return `await ${at}.press(${JSON.stringify(normalizeChord([action.key]).join("+"))});`;
    case "select":
      return `await ${at}.selectOption(${JSON.stringify(action.value)});`;
    case "check":
      return `await ${at}.setChecked(${action.checked});`;
    case "hover":
      return `await ${at}.hover();`;
  }
}

/** A screen action: on its element when the page named one, else at its point in CSS pixels. */
function actionLines(action: Action, point: { x: number; y: number } | null, element: TrajectoryTarget | null, scale: number): string[] {
  const css = (v: number) => Math.round((v / scale) * 10) / 10;
  const located = element && (element.locator || element.xpath) ? locatorOf(element) : null;
  const at = (x: number, y: number) => `${css(point?.x ?? x)}, ${css(point?.y ?? y)}`;
  switch (action.type) {
    case "click": {
      const button = action.args.button === "left" ? "" : `{ button: "${action.args.button}" }`;
      return [located ? `await ${located}.click(${button});` : `await page.mouse.click(${at(action.args.x, action.args.y)}${button ? `, ${button}` : ""});`];
    }
    case "double_click":
      return [located ? `await ${located}.dblclick();` : `await page.mouse.dblclick(${at(action.args.x, action.args.y)});`];
    case "triple_click":
      return [located ? `await ${located}.click({ clickCount: 3 });` : `await page.mouse.click(${at(action.args.x, action.args.y)}, { clickCount: 3 });`];
    case "right_click":
      return [located ? `await ${located}.click({ button: "right" });` : `await page.mouse.click(${at(action.args.x, action.args.y)}, { button: "right" });`];
    case "move":
      return [located ? `await ${located}.hover();` : `await page.mouse.move(${at(action.args.x, action.args.y)});`];
    case "drag":
      return [`await page.mouse.move(${at(action.args.x, action.args.y)});`, "await page.mouse.down();", `await page.mouse.move(${css(action.args.end_x)}, ${css(action.args.end_y)}, { steps: 10 });`, "await page.mouse.up();"];
    case "scroll":
      return [`await page.mouse.move(${at(action.args.x, action.args.y)});`, `await page.mouse.wheel(${css(action.args.scroll_x)}, ${css(action.args.scroll_y)});`];
    case "type":
      return [...secretNote(action.args.text), `await page.keyboard.type(${JSON.stringify(action.args.text)});`];
    case "keypress":
      return [`await page.keyboard.press(${JSON.stringify(normalizeChord(action.args.keys).join("+"))});`];
    case "hold_key": {
      const keys = action.args.keys.map(normalizeKey);
      return [...keys.map((k) => `await page.keyboard.down(${JSON.stringify(k)});`), `await page.waitForTimeout(${action.args.ms});`, ...keys.reverse().map((k) => `await page.keyboard.up(${JSON.stringify(k)});`)];
    }
    case "wait":
      return [`await page.waitForTimeout(${action.args.ms});`];
    case "navigate":
      return [`await page.goto(${JSON.stringify(action.args.url)});`];
    case "upload":
      // A line separator in the name would end the comment and start code.
      return [`// Uploaded the person's file ${JSON.stringify(action.args.name).replace(/[\u2028\u2029]/g, " ")}: put a file of that name beside this script.`, `await ${located ?? 'page.locator("input[type=file]")'}.setInputFiles(${JSON.stringify(action.args.name)});`];
    case "done":
    case "needs_user":
      return [];
  }
}

/** A typed `%name%` is a secret's placeholder: the value was never recorded. */
function secretNote(text: string): string[] {
  return /%[A-Za-z_][A-Za-z0-9_]*%/.test(text) ? ["// The text names a secret by its placeholder; put its value in before running."] : [];
}

/** The element's locator as code written from its parsed calls (literal arguments only), else its XPath. */
function locatorOf(target: TrajectoryTarget): string {
  if (target.locator) {
    try {
      return `page.${parseLocatorCode(target.locator).map(({ method, args }) => `${method}(${args.map(literal).join(", ")})`).join(".")}`;
    } catch {
      // Code the reader does not take: the XPath below names the element as well.
    }
  }
  if (target.xpath) return `page.locator(${JSON.stringify(`xpath=${target.xpath}`)})`;
  throw new AppError("NOT_EXPORTABLE", "A recorded element has neither locator nor XPath.");
}

function literal(value: Value): string {
  if (value instanceof RegExp) return new RegExp(value.source, value.flags).toString();
  if (typeof value === "object") return `{ ${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${literal(v)}`).join(", ")} }`;
  return JSON.stringify(value);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim().slice(0, 200);
}
