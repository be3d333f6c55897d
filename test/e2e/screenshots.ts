// Makes the README's screenshots (docs/screenshots/*.png): the real server and UI, a scripted
// model and a local invoices page, captured at 1280×800 and 390×844. Run: npm run screenshots.
import { mkdir, readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { startApp, type TestApp } from "../support/app.ts";
import { act, startScriptedModel, systemText, type Reply, type ScriptedModel } from "../support/scripted-model.ts";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../support/chromium.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.resolve(here, "../../docs/screenshots");
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const findMarch = act("move", { x: 146, y: 357 }, "Found the invoice list; March 2025 is the third row");
const clickDownload = act("click", { x: 637, y: 357 }, "Clicked “Download PDF” on the March 2025 row");

async function newPage(browser: Browser, viewport: typeof DESKTOP, url: string): Promise<Page> {
  const page = await browser.newPage({ viewport, deviceScaleFactor: 1, locale: "en-US" });
  await page.goto(url);
  return page;
}

async function send(page: Page, text: string, startUrl?: string): Promise<void> {
  if (startUrl) await page.getByRole("textbox", { name: "Start URL (optional)" }).fill(startUrl);
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("textbox", { name: "Message" }).press("Enter");
}

async function shoot(page: Page, name: string): Promise<void> {
  // Let the last frames load and the chat settle at the bottom.
  await page.waitForLoadState("networkidle").catch(() => undefined);
  await page.waitForFunction(() => [...document.images].every((image) => image.complete));
  await page.screenshot({ path: path.join(OUT, name) });
  process.stdout.write(`wrote docs/screenshots/${name}\n`);
}

/** Serves the invoices page over HTTP, as a real site would be. */
async function serveInvoices(): Promise<{ url: string; close: () => void }> {
  const html = await readFile(path.join(here, "pages/invoices.html"));
  const server = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/invoices`, close: () => server.close() };
}

async function answerStates(browser: Browser, app: TestApp, model: ScriptedModel, invoices: string): Promise<void> {
  model.chat(
    { chat: { text: "I can open your billing page in a browser and download any month's invoice as a PDF. Which month do you need?" } },
    { chat: { calls: [{ name: "computer_task", arguments: { task: "Open the invoice page and download the March 2025 invoice as a PDF", start_url: invoices } }] } },
    { chat: { text: "Done — the PDF is in the browser's downloads. Shall I get April's as well?" } },
  );
  model.script(
    findMarch,
    clickDownload,
    act(
      "done",
      { answer: "Downloaded the **March 2025** invoice (`invoice-march-2025.pdf`, $1,315.50).\n\nThe other months are still on the page if you need them." },
      "The download started",
    ),
    act("needs_user", { answer: "The payment form asks for a **card security code**. Please enter it in the browser yourself, then press the button below." }, "Waiting for the card code"),
  );
  const page = await newPage(browser, DESKTOP, app.url);
  await send(page, "Can you get my invoices?");
  await page.getByTestId("answer-message").waitFor();
  await send(page, "March, please", invoices);
  await page.getByTestId("answer-message").nth(1).waitFor();
  await send(page, "Now pay the April invoice", invoices);
  await page.getByRole("button", { name: "I've done it" }).waitFor();
  await shoot(page, "answer-desktop.png");
  const phone = await newPage(browser, PHONE, page.url());
  await phone.getByRole("button", { name: "I've done it" }).waitFor();
  await shoot(phone, "answer-phone.png");
  await page.getByRole("button", { name: "Stop the task" }).click();
  await page.getByTestId("run-card").last().and(page.locator("[data-status=stopped]")).waitFor();
}

async function runningState(browser: Browser, app: TestApp, model: ScriptedModel, invoices: string): Promise<void> {
  model.script({ ...findMarch, delayMs: 400 }, { ...clickDownload, delayMs: 400 }, { ...act("done", { answer: "Done." }), delayMs: 120_000 });
  const page = await newPage(browser, DESKTOP, app.url);
  await send(page, "Open the invoice page and download March's PDF", invoices);
  const card = page.getByTestId("run-card").last();
  await card.getByRole("slider").and(page.locator("[aria-valuemax='2']")).waitFor();
  const phone = await newPage(browser, PHONE, page.url());
  await phone.getByTestId("run-card").getByRole("slider").and(phone.locator("[aria-valuemax='2']")).waitFor();
  await shoot(phone, "running-phone.png");
  await card.getByRole("button", { name: "Show all progress" }).click();
  await card.getByRole("list", { name: "Progress" }).getByRole("button").nth(1).click();
  await card.evaluate((element) => element.scrollIntoView({ block: "start" }));
  await shoot(page, "running-desktop.png");
  await card.getByRole("button", { name: "Stop the task" }).click();
  await card.and(page.locator("[data-status=stopped]")).waitFor();
}

/** A tool-agent run (dom mode) with its extract step selected: the call's input and the data as JSON. */
async function toolAgentState(browser: Browser, model: ScriptedModel, invoices: string): Promise<void> {
  const app = await startApp({ modelBaseUrl: model.baseUrl, config: { agent: { mode: "dom" }, network: { allowedOrigins: [new URL(invoices).origin] } } });
  try {
    const calls = (name: string, args: unknown): Reply => ({ chat: { calls: [{ name, arguments: args }] } });
    const schema = { type: "object", properties: { month: { type: "string" }, total: { type: "number" }, status: { type: "string" } } };
    model.route(
      (r) => systemText(r).startsWith("<identity>"),
      calls("ariaTree", {}),
      calls("extract", { instruction: "the March 2025 invoice: month, total and status", schema }),
      calls("close", { reasoning: "March 2025: **$1,315.50**, paid.", taskComplete: true }),
    );
    model.route((r) => systemText(r).startsWith("You extract data"), { text: '{"result": {"month": "March 2025", "total": 1315.5, "status": "Paid"}}' });
    const page = await newPage(browser, { width: 1280, height: 1000 }, app.url);
    await send(page, "What did the March invoice come to?", invoices);
    const card = page.getByTestId("run-card").last();
    await card.and(page.locator("[data-status=completed]")).waitFor();
    await card.getByRole("button", { name: "Show 3 steps" }).click();
    await card.getByRole("list", { name: "Progress" }).getByRole("button").nth(1).click();
    await card.evaluate((element) => element.scrollIntoView({ block: "end" }));
    await shoot(page, "tool-agent-desktop.png");
  } finally {
    await app.close();
  }
}

async function main(): Promise<void> {
  await mkdir(OUT, { recursive: true });
  const model = await startScriptedModel();
  const invoices = await serveInvoices();
  // The invoices site is local, so the network fence is told it may be opened.
  const app = await startApp({ modelBaseUrl: model.baseUrl, config: { network: { allowedOrigins: [new URL(invoices.url).origin] } } });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    await answerStates(browser, app, model, invoices.url);
    await runningState(browser, app, model, invoices.url);
    await toolAgentState(browser, model, invoices.url);
  } finally {
    await browser.close();
    invoices.close();
    await app.close();
    await model.close();
  }
}

await main();
