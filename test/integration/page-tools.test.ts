// Tools a page declares for agents (WebMCP): a shop page registers getCart (read-only) and
// addToCart by script. Where the browser has no model context, the page is given one that hears
// them; where Chromium has the standard API itself, the same tools are found through it. Either
// way they are listed and called on the page that is the screen, and the page's cart changes.
import { describe, expect, it } from "vitest";
import { chromium } from "playwright-core";
import { BrowserComputer } from "../../src/computers/browser/browser-computer.ts";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../support/chromium.ts";
import { onFixtureScreen } from "../support/fixture-browser.ts";
import { useWorld } from "../support/world.ts";

const { pages } = useWorld({ app: false });

describe("a browser without the standard API", () => {
  it("gives the page a model context that hears the tools it registers, lists them and calls them", async () => {
    await onFixtureScreen(async (computer) => {
      await computer.navigate(pages.url("shop-tools.html"));
      const tools = await computer.web.pageTools();
      expect(tools).toEqual([
        {
          name: "addToCart",
          description: "Adds a quantity of a product, by its SKU, to the cart.",
          inputSchema: { type: "object", properties: { sku: { type: "string", pattern: "^[A-Z]-\\d+$" }, quantity: { type: "integer", minimum: 1 } }, required: ["sku", "quantity"] },
          readOnly: false,
        },
        { name: "getCart", description: "The items in the shopper's cart.", inputSchema: { type: "object", properties: {} }, readOnly: true },
      ]);
      expect(await computer.web.callPageTool("addToCart", { sku: "D-4", quantity: 3 })).toBe('{"content":[{"type":"text","text":"Added 3 × D-4."}]}');
      await pages.waitForRecord("cart=D-4x3");
      await expect(computer.web.callPageTool("removeFromCart", {})).rejects.toMatchObject({ code: "NOT_FOUND", message: 'The page declares no tool "removeFromCart"; it declares "getCart", "addToCart".' });
    });
  });
});

describe("a browser with the standard API", () => {
  it("finds and calls the page's tools through Chromium's own model context", async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, "--enable-features=WebMCP"] });
    try {
      const page = await browser.newPage();
      const computer = await BrowserComputer.attach(browser, page, { jpegQuality: 80, navigationTimeoutMs: 10_000 });
      await computer.navigate(pages.url("shop-tools.html"));
      // The page registered through both names: the older one is the standard one here.
      expect(await page.evaluate(() => String(Object.getPrototypeOf((document as unknown as { modelContext: object }).modelContext).constructor.name))).toBe("ModelContext");
      const tools = await computer.web.pageTools();
      expect(tools.map((t) => [t.name, t.readOnly])).toEqual([
        ["addToCart", false],
        ["getCart", true],
      ]);
      expect(await computer.web.callPageTool("addToCart", { sku: "C-3", quantity: 1 })).toContain("Added 1 × C-3.");
      expect(await page.textContent("#cart")).toBe("C-3 × 1");
      await pages.waitForRecord("cart=C-3x1");
    } finally {
      await browser.close();
    }
  });
});
