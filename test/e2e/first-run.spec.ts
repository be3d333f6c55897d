// A first run that explains itself and can be fixed from the page: with no model key, or with a
// model server that does not answer, the UI says what to set before anyone sends a message, keeps
// the composer from sending, and opens the model settings where the person sets a model's address
// and key, tests them and saves them; the next task runs on them without a restart. Nothing of this
// shows when the model can be asked.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { AxeBuilder } from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { act } from "../support/scripted-model.ts";
import { expect, test } from "./fixtures.ts";
import { snapshot } from "./ui-sizes.ts";

const CLOUD = "https://dashscope.aliyuncs.com/compatible-mode/v1";
const KEY = "sk-typed-in-the-panel-98765abcd";

async function expectAccessible(page: Page, state: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${state}: ${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`)).toEqual([]);
}

/** Every visible button and field in `scope` is at least 44×44 px, as a finger needs. */
async function expectTouchSized(scope: Locator): Promise<void> {
  const controls = scope.locator("button, input, select");
  for (let i = 0; i < (await controls.count()); i++) {
    const control = controls.nth(i);
    if (!(await control.isVisible())) continue;
    const box = await control.boundingBox();
    const name = (await control.getAttribute("aria-label")) ?? (await control.textContent()) ?? (await control.getAttribute("id"));
    expect({ name, width: box!.width >= 44, height: box!.height >= 44 }).toEqual({ name, width: true, height: true });
  }
}

test.describe("with no key for a cloud model", () => {
  test.use({ appConfig: { model: { baseUrl: CLOUD, apiKey: "" } } });

  test("the banner and the composer say what to set, and sending waits for it", async ({ chat, page }) => {
    await chat.open();
    const banner = page.getByRole("alert").filter({ hasText: "No model key yet" });
    await expect(banner).toContainText("Model settings");
    await expect(banner).toContainText("No restart needed");
    await banner.getByText("Details").click();
    await expect(banner).toContainText("MODEL_API_KEY is not set");
    const line = page.getByRole("status").filter({ hasText: "no model to ask yet" });
    await expect(line).toContainText("set a model key, or a local model's address");
    await chat.prompt.fill("open the invoices page");
    await expect(page.getByRole("button", { name: "Send" })).toBeDisabled();
    await chat.prompt.press("Enter");
    await expect(chat.runCards).toHaveCount(0);
    await expect(page).not.toHaveURL(/\/s\//);
    await expectAccessible(page, "no model to ask");
    // On a phone it wraps and keeps the prompt, and the way to the settings, in view.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(banner).toBeInViewport();
    await expect(chat.prompt).toBeInViewport();
    await expect(line.getByRole("button", { name: "Model settings" })).toBeInViewport();
    await expectTouchSized(banner);
    await expectTouchSized(line);
    await snapshot(page, "no-model-phone");
  });

  for (const size of [
    { name: "laptop", viewport: { width: 1280, height: 800 } },
    { name: "phone", viewport: { width: 390, height: 844 } },
  ]) {
    test(`on a ${size.name}, the person sets a local model's address and key in the app, tests, saves and the task runs`, async ({ chat, page, model, pages }) => {
      await page.setViewportSize(size.viewport);
      await chat.open();
      await page.getByRole("alert").getByRole("button", { name: "Model settings" }).click();
      const panel = page.getByRole("dialog", { name: "Model settings" });
      await expect(panel).toBeVisible();
      await expect(panel.getByLabel("Provider")).toHaveValue("qwen");
      await expect(panel.getByLabel(/^Model/)).toHaveAttribute("placeholder", "scripted-vl");
      await expect(panel.getByText("No key is set.")).toBeVisible();
      await expect(panel).toContainText("(from the server's environment)");
      await expectAccessible(page, "the model settings");
      if (size.name === "phone") await expectTouchSized(panel);

      await panel.getByLabel(/^Address/).fill(model.baseUrl);
      await panel.getByLabel(/^API key/).fill(KEY);
      await panel.getByRole("button", { name: "Test" }).click();
      await expect(panel.getByRole("status")).toHaveText("The model answers and takes the key: these settings can be used.");
      await snapshot(page, `model-settings-${size.name}`);
      // Testing saves nothing: the banner is still there behind the panel.
      expect((await chat.app.api<{ ready: boolean }>("GET", "/api/model-status")).json.ready).toBe(false);

      await panel.getByRole("button", { name: "Save" }).click();
      await expect(panel).toBeHidden();
      await expect(page.getByRole("alert").filter({ hasText: "No model key yet" })).toHaveCount(0);
      await expect(page.getByRole("status").filter({ hasText: "no model to ask yet" })).toHaveCount(0);

      model.script(act("done", { answer: "The invoices page is open." }, "Finished"));
      await chat.send("open the form", pages.url("form.html"));
      await expect(chat.card().answer).toContainText("The invoices page is open.");
      expect(model.requests.length).toBeGreaterThan(0);
      for (const request of model.requests) expect(request.headers.authorization).toBe(`Bearer ${KEY}`);

      // Opened again, it shows the key only as set, by its last 4 characters. The server's answer
      // comes a moment late: a provider chosen meanwhile would be overwritten by it, so the fields wait.
      await page.route("**/api/settings/model", async (route) => {
        if (route.request().method() === "GET") await new Promise((resolve) => setTimeout(resolve, 500));
        await route.continue();
      });
      await page.getByRole("button", { name: "Model settings" }).first().click();
      await expect(panel.getByLabel("Provider")).toBeDisabled();
      await expect(panel.getByLabel("Provider")).toBeEnabled();
      await expect(panel.getByText("A key ending in abcd is set.")).toBeVisible();
      await expect(panel.getByLabel(/^Address/)).toHaveValue(model.baseUrl);
      await expect(panel.getByLabel(/^API key/)).toHaveValue("");
      expect(await page.content()).not.toContain(KEY.slice(0, -4));
      // Another provider starts from its own defaults; back to this one, what was set here returns.
      await panel.getByLabel("Provider").selectOption("anthropic");
      await expect(panel.getByLabel(/^Address/)).toHaveValue("");
      await expect(panel.getByLabel(/^Address/)).toHaveAttribute("placeholder", "https://api.anthropic.com");
      await expect(panel.getByText("No key is set.")).toBeVisible();
      await panel.getByLabel("Provider").selectOption("qwen");
      await expect(panel.getByLabel(/^Address/)).toHaveValue(model.baseUrl);
    });
  }
});

test.describe("with a model server that is not running", () => {
  let port = 0;
  test.beforeAll(async () => {
    const server = createServer().listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    port = (server.address() as AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
  });
  test.use({ appConfig: async ({}, use) => use({ model: { baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: "" } }), allowedConsoleErrors: [/status of 400 \(Bad Request\)/] });

  test("the banner says the server does not answer, and testing another address says why it fails", async ({ chat, page }) => {
    await chat.open();
    const banner = page.getByRole("alert").filter({ hasText: "does not answer" });
    await expect(banner).toContainText(`http://127.0.0.1:${port}/v1`);
    await banner.getByText("Details").click();
    await expect(banner).toContainText("ECONNREFUSED");
    await expect(page.getByRole("button", { name: "Send" })).toBeDisabled();
    await banner.getByRole("button", { name: "Model settings" }).click();
    const panel = page.getByRole("dialog", { name: "Model settings" });
    await panel.getByLabel(/^Address/).fill(`http://127.0.0.1:${port}/v2`);
    await panel.getByRole("button", { name: "Test" }).click();
    await expect(panel.getByRole("status")).toContainText("does not answer: ECONNREFUSED");
    await panel.getByLabel(/^Address/).fill("ftp://127.0.0.1/v1");
    await panel.getByRole("button", { name: "Save" }).click();
    await expect(panel.getByRole("status")).toContainText("base_url: must be an http(s) address");
    await page.keyboard.press("Escape");
    await expect(panel).toBeHidden();
    await expect(banner).toBeVisible();
  });
});

test("no banner and no settings line when the model answers", async ({ chat, page }) => {
  await chat.open();
  await expect(chat.prompt).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: /model/i })).toHaveCount(0);
  await expect(page.getByRole("status").filter({ hasText: /model/i })).toHaveCount(0);
  await chat.prompt.fill("hello");
  await expect(page.getByRole("button", { name: "Send" })).toBeEnabled();
});
