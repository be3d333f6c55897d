// The e2e fixtures: a scripted model, the fixture pages and the real app for each test, a chat
// page object, and a guard that fails any test whose page logged an error.
import { test as base, expect, type Locator, type Page } from "@playwright/test";
import type { ConfigInput, DeepPartial } from "../../src/core/config.ts";
import type { TaskReply } from "../../src/protocol/index.ts";
import { startApp, type TestApp } from "../support/app.ts";
import { startFixtureServer, type FixtureServer } from "../support/fixture-server.ts";
import { startScriptedModel, type ScriptedModel } from "../support/scripted-model.ts";

export class ChatPage {
  readonly prompt: Locator;
  readonly startUrl: Locator;
  readonly runCards: Locator;

  constructor(
    readonly page: Page,
    readonly app: TestApp,
    /** Where the browser reaches the app; a test may put a proxy in between. */
    readonly baseUrl = app.url,
  ) {
    this.prompt = page.getByRole("textbox", { name: "Message" });
    this.startUrl = page.getByRole("textbox", { name: "Start URL (optional)" });
    this.runCards = page.getByTestId("run-card");
  }

  async open(path = "/"): Promise<void> {
    await this.page.goto(`${this.baseUrl}${path}`);
  }

  /** Types a task and presses Enter, as a person would. */
  async send(text: string, startUrl?: string): Promise<void> {
    if (startUrl) await this.startUrl.fill(startUrl);
    await this.prompt.fill(text);
    await this.prompt.press("Enter");
  }

  card(index = -1): RunCard {
    return new RunCard(index < 0 ? this.runCards.last() : this.runCards.nth(index));
  }

  /** The open session's id, from the address bar. */
  sessionId(): string {
    const match = /\/s\/([^/]+)$/.exec(new URL(this.page.url()).pathname);
    if (!match?.[1]) throw new Error(`no session in ${this.page.url()}`);
    return match[1];
  }

  async task(taskId: string): Promise<TaskReply> {
    return (await this.app.api<TaskReply>("GET", `/api/tasks/${taskId}`)).json;
  }

  async onlyTaskId(): Promise<string> {
    const { json } = await this.app.api<{ tasks: { id: string }[] }>("GET", `/api/sessions/${this.sessionId()}/tasks`);
    if (json.tasks.length !== 1 || !json.tasks[0]) throw new Error(`expected one task, got ${json.tasks.length}`);
    return json.tasks[0].id;
  }
}

export class RunCard {
  readonly latestProgress: Locator;
  readonly progressToggle: Locator;
  readonly timeline: Locator;
  readonly screen: Locator;
  readonly screenImage: Locator;
  readonly screenPosition: Locator;
  readonly marker: Locator;
  readonly scrubber: Locator;
  readonly answer: Locator;
  readonly stop: Locator;

  constructor(readonly root: Locator) {
    this.latestProgress = root.getByTestId("latest-progress");
    this.progressToggle = root.getByRole("button", { name: /progress/ });
    this.timeline = root.getByRole("list", { name: "Progress" });
    this.screen = root.getByRole("figure", { name: "Screen" });
    this.screenImage = this.screen.locator("img");
    this.screenPosition = root.getByTestId("screen-position");
    this.marker = root.getByTestId("action-marker");
    this.scrubber = root.getByRole("slider", { name: "Steps and live screen" });
    this.answer = root.getByTestId("answer");
    this.stop = root.getByRole("button", { name: "Stop the task" });
  }

  timelineItem(index: number): Locator {
    return this.timeline.getByRole("button").nth(index);
  }

  /** Drags the scrubber's thumb to a fraction 0…1 of its track with the mouse. */
  async dragScrubberTo(fraction: number): Promise<void> {
    const page = this.root.page();
    await this.scrubber.scrollIntoViewIfNeeded();
    const thumb = await this.root.getByTestId("scrubber-thumb").boundingBox();
    const track = await this.root.getByTestId("scrubber-track").boundingBox();
    if (!thumb || !track) throw new Error("the scrubber is not visible");
    await page.mouse.move(thumb.x + thumb.width / 2, thumb.y + thumb.height / 2);
    await page.mouse.down();
    const targetX = track.x + track.width * fraction;
    await page.mouse.move(targetX, thumb.y + thumb.height / 2, { steps: 8 });
    await page.mouse.up();
  }
}

interface Fixtures {
  /** Settings of the app under test, beyond the scripted model's address. */
  appConfig: DeepPartial<ConfigInput>;
  model: ScriptedModel;
  pages: FixtureServer;
  app: TestApp;
  chat: ChatPage;
  /** Console errors the test expects (say, while the server is unreachable). */
  allowedConsoleErrors: RegExp[];
  consoleGuard: void;
}

export const test = base.extend<Fixtures>({
  model: async ({}, use) => {
    const model = await startScriptedModel();
    await use(model);
    await model.close();
  },
  pages: async ({}, use) => {
    const pages = await startFixtureServer();
    await use(pages);
    await pages.close();
  },
  appConfig: [{}, { option: true }],
  // After the pages, whose origin the network fence then lets the agent's browser open.
  app: async ({ model, pages: _pages, appConfig }, use) => {
    const app = await startApp({ modelBaseUrl: model.baseUrl, config: appConfig });
    await use(app);
    await app.close();
  },
  chat: async ({ page, app }, use) => {
    await use(new ChatPage(page, app));
  },
  allowedConsoleErrors: [[], { option: true }],
  consoleGuard: [
    // It depends on app so that it checks before the server shuts down under the open page.
    async ({ page, app: _app, allowedConsoleErrors }, use) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error" && !allowedConsoleErrors.some((allowed) => allowed.test(message.text()))) errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(String(error)));
      await use();
      expect(errors, "the page logged errors").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
