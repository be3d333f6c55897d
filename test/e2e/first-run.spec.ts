// A first run that explains itself: with no model key, or with a model server that does not
// answer, the UI says which one setting to change before anyone sends a message — and says
// nothing when the model can be asked.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "./fixtures.ts";

test.describe("with no key for a cloud model", () => {
  test.use({ appConfig: { model: { baseUrl: "https://dashscope.aliyuncs.com/compatible-mode/v1", apiKey: "" } } });

  test("the banner names the key to set, and MODEL_BASE_URL for a local model", async ({ chat, page }) => {
    await chat.open();
    const banner = page.getByRole("alert").filter({ hasText: "No model key yet" });
    await expect(banner).toContainText("Set MODEL_API_KEY and start EasyAgentCU again");
    await expect(banner).toContainText("MODEL_BASE_URL");
    await expect(chat.prompt).toBeEditable();
    // On a phone it wraps and keeps the prompt in view.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(banner).toBeInViewport();
    await expect(chat.prompt).toBeInViewport();
  });
});

test.describe("with a model server that is not running", () => {
  let port = 0;
  test.beforeAll(async () => {
    const server = createServer().listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    port = (server.address() as AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
  });
  test.use({ appConfig: async ({}, use) => use({ model: { baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: "" } }) });

  test("the banner says the server does not answer and which setting points at it", async ({ chat, page }) => {
    await chat.open();
    const banner = page.getByRole("alert").filter({ hasText: "does not answer" });
    await expect(banner).toContainText(`http://127.0.0.1:${port}/v1`);
    await expect(banner).toContainText("MODEL_BASE_URL");
    await banner.getByText("Details").click();
    await expect(banner).toContainText("ECONNREFUSED");
  });
});

test("no banner when the model answers", async ({ chat, page }) => {
  await chat.open();
  await expect(chat.prompt).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: /model/i })).toHaveCount(0);
});
