// Set-of-Mark under overlays, in a real Chromium: a link under a layer that paints nothing over it
// (a transparent click catcher, a layer at opacity 0, a faint wash) is still numbered, and one under
// a layer a person would see (an opaque toast, a modal's 50% backdrop, in the page or in a web
// component's shadow root) is not — in the server's DOM index and in the extension's copy of the
// scan alike, and for the controls only the pixels show.
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { findChromium } from "../../src/computers/browser/find-chromium.ts";
import { CLICK_ID_ATTR, domIndex } from "../../src/computers/browser/page-understanding.ts";
import { PAGE_GLOBAL } from "../../extension/src/shared/messages.ts";
import { CHROMIUM_ARGS } from "../support/chromium.ts";
import { buildExtensionIfStale, EXTENSION_DIST } from "../support/extension-browser.ts";
import { onFixtureScreen } from "../support/fixture-browser.ts";
import { startFixtureServer, type FixtureServer } from "../support/fixture-server.ts";

let pages: FixtureServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  buildExtensionIfStale();
  pages = await startFixtureServer();
  browser = await chromium.launch({ executablePath: findChromium(process.env.CHROME_PATH), args: ["--no-sandbox", ...CHROMIUM_ARGS] });
}, 180_000);
beforeEach(async () => {
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
});
afterEach(async () => {
  await page?.close();
});
afterAll(async () => {
  await browser?.close();
  await pages?.close();
});

/** What the extension's page bundle numbers on the page, as it does in a person's Chrome. */
async function extensionIndex(): Promise<{ text?: string }[]> {
  await page.addScriptTag({ path: path.join(EXTENSION_DIST, "page.js") });
  return page.evaluate(
    ([global, attr]) => (window as unknown as Record<string, { domIndex(a: object): { text?: string }[] }>)[global]!.domIndex({ scope: "viewport", attr }),
    [PAGE_GLOBAL, CLICK_ID_ATTR] as const,
  );
}

describe("Set-of-Mark under overlays", () => {
  it("numbers the links under layers that paint nothing over them, and not the one under an opaque toast", async () => {
    await page.goto(pages.url("overlay-clear.html"));
    const listed = ["Home", "Docs", "Pricing", "Sign in", "Dismiss"];
    expect((await domIndex(page)).map((e) => e.text)).toEqual(listed);
    expect((await extensionIndex()).map((e) => e.text)).toEqual(listed);
  });

  it.each([
    ["overlay-modal.html", ["Cancel", "Delete"]],
    ["overlay-shadow.html", ["Cancel", "Delete"]],
    ["overlay-drawer.html", ["Close menu"]],
  ])("leaves out what shows through a modal's backdrop, and numbers the dialog's own buttons (%s)", async (modal, listed) => {
    await page.goto(pages.url(modal));
    expect((await domIndex(page)).map((e) => e.text)).toEqual(listed);
    expect((await extensionIndex()).map((e) => e.text)).toEqual(listed);
  });

  it("gives the browser computer's Set-of-Mark the links under a transparent full-screen layer", async () => {
    await onFixtureScreen(async (computer) => {
      await computer.navigate(pages.url("overlay-clear.html"));
      const elements = await computer.elements();
      expect(elements.map((e) => [e.id, e.kind, e.label])).toEqual([
        [1, "link", "Home"],
        [2, "link", "Docs"],
        [3, "link", "Pricing"],
        [4, "button", "Sign in"],
        [5, "button", "Dismiss"],
      ]);
    });
  }, 60_000);

  it.each(["overlay-modal.html", "overlay-shadow.html"])("gives the browser computer's Set-of-Mark only the dialog's buttons, not what its pixels see dimmed behind the backdrop (%s)", async (modal) => {
    await onFixtureScreen(async (computer) => {
      await computer.navigate(pages.url(modal));
      const elements = await computer.elements();
      expect(elements.map((e) => [e.id, e.kind, e.label])).toEqual([
        [1, "button", "Cancel"],
        [2, "button", "Delete"],
      ]);
    });
  }, 60_000);
});

describe("Set-of-Mark from the pixels under overlays", () => {
  it("keeps a control drawn on a canvas under layers that paint nothing there or in its own faded card, and leaves it out behind a dimming backdrop", async () => {
    await onFixtureScreen(async (computer) => {
      // canvas-controls.html draws a "Play" button on a canvas that only the pixels show.
      const layered = async (layer: string | null, card: string | null) => {
        const asked = new URLSearchParams({ ...(layer ? { layer } : {}), ...(card ? { card } : {}) });
        await computer.navigate(pages.url(`canvas-controls.html?${asked}`));
        return (await computer.elements()).map((e) => e.label);
      };
      expect(await layered(null, null)).toContain("Play");
      expect(await layered("background: transparent", null)).toContain("Play");
      expect(await layered("background: rgba(0, 0, 0, 0.02)", "background: rgba(255, 255, 255, 0.9); opacity: 0.7")).toContain("Play");
      expect(await layered("background: rgba(0, 0, 0, 0.5)", null)).not.toContain("Play");
      expect(await layered("backdrop-filter: brightness(0.5)", null)).not.toContain("Play");
    });
  }, 120_000);
});
