// Reading a page the way an agent does, in a real Chromium: an ARIA tree whose refs reach into
// iframes and shadow roots and can be acted on, a numbered index of the controls, the article text
// without the clutter around it, and a page preparation that survives one of its parts failing.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { chromium, type Browser, type Page } from "playwright-core";
import { findChromium } from "../../src/computers/browser/find-chromium.ts";
import { preparePage } from "../../src/perception/page-prep.ts";
import {
  ariaTree,
  CLICK_ID_ATTR,
  describeLocator,
  domIndex,
  locateRef,
  readability,
  waitForLoaded,
  xpathScan,
} from "../../src/computers/browser/page-understanding.ts";
import { CHROMIUM_ARGS } from "../support/chromium.ts";
import { startFixtureServer, type FixtureServer } from "../support/fixture-server.ts";

let pages: FixtureServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  pages = await startFixtureServer();
  browser = await chromium.launch({
    executablePath: findChromium(process.env.CHROME_PATH),
    args: ["--no-sandbox", ...CHROMIUM_ARGS],
  });
});
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

/** The ref the tree gives the element with this role and name. */
function refOf(tree: string, role: string, name: string): string {
  const match = tree.match(new RegExp(`${role} "${name}"[^\\n]*\\[ref=([^\\]]+)\\]`));
  if (!match) throw new Error(`no ${role} "${name}" in\n${tree}`);
  return match[1]!;
}

describe("the ARIA tree", () => {
  it("shows the controls inside a same-origin iframe, and their refs drive them", async () => {
    await page.goto(pages.url("iframe.html"));
    const tree = await ariaTree(page);
    expect(tree.url).toBe(pages.url("iframe.html"));
    expect(tree.content).toContain('heading "Outer page"');
    const button = refOf(tree.content, "button", "Inner button");
    const field = refOf(tree.content, "textbox", "Inner field");
    expect(button).toMatch(/^f\d+e\d+$/);

    await locateRef(page, button).click();
    await pages.waitForRecord("inner-clicked");
    await locateRef(page, field).fill("plums");
    await pages.waitForRecord("inner-typed:plums");
    expect(await describeLocator(locateRef(page, button))).toBe(
      `locator('iframe[title="Inner form"]').contentFrame().getByRole('button', { name: 'Inner button' })`,
    );
  });

  it("shows the controls inside an open shadow root, and their refs drive them", async () => {
    await page.goto(pages.url("shadow.html"));
    const { content } = await ariaTree(page);
    await locateRef(page, refOf(content, "textbox", "Comment")).fill("Sturdy and light");
    await pages.waitForRecord("shadow-typed:Sturdy and light");
    const rate = locateRef(page, refOf(content, "button", "Rate 5 stars"));
    await rate.click();
    await pages.waitForRecord("rated:5");
    expect(await describeLocator(rate)).toBe("getByRole('button', { name: 'Rate 5 stars' })");
  });

  it("refuses a malformed ref at once, and cannot describe one that names nothing", async () => {
    for (const bad of ["button-3", "[ref=e2]", "e", "12", "f1"]) {
      expect(() => locateRef(page, bad)).toThrow(expect.objectContaining({ code: "INVALID_TARGET" }));
    }
    expect(await describeLocator(locateRef(page, "e9999"))).toBeNull();
  });
});

describe("the DOM index", () => {
  const LONG_FORM = [
    "First name", "Last name", "Email", "Phone", "Date of birth", "Street", "City", "Postcode",
    "Country", "Basic", "Pro", "About you", "I accept the terms", "Submit",
  ];
  const numbered = () => page.locator(`[${CLICK_ID_ATTR}]`);

  it("numbers every control of a long form in document order, with boxes and XPaths that find it again", async () => {
    await page.goto(pages.url("long-form.html"));
    const elements = await domIndex(page, { scope: "document" });
    expect(elements.map((e) => e.text)).toEqual(LONG_FORM);
    expect(elements.map((e) => e.clickId)).toEqual(LONG_FORM.map((_, i) => i + 1));
    expect(elements.find((e) => e.text === "Country")?.tag).toBe("select");
    expect(await numbered().count()).toBe(LONG_FORM.length);

    for (const element of elements) {
      const byNumber = page.locator(`[${CLICK_ID_ATTR}="${element.clickId}"]`);
      const box = (await byNumber.boundingBox())!;
      expect(Math.abs(box.x - element.bbox.x)).toBeLessThanOrEqual(1);
      expect(Math.abs(box.y - element.bbox.y)).toBeLessThanOrEqual(1);
      expect(Math.abs(box.width - element.bbox.w)).toBeLessThanOrEqual(1);
      expect(Math.abs(box.height - element.bbox.h)).toBeLessThanOrEqual(1);
      const byXpath = page.locator(`xpath=${element.xpath}`);
      expect(await byXpath.getAttribute(CLICK_ID_ATTR)).toBe(String(element.clickId));
    }
    expect(elements.find((e) => e.text === "Email")?.xpath).toBe('//*[@id="email"]');
    expect(elements.at(-1)?.xpath).toBe("/html/body/form[1]/button[1]");
  });

  it("in viewport scope numbers only what is on screen, and renumbers after a scroll", async () => {
    await page.goto(pages.url("long-form.html"));
    await domIndex(page, { scope: "document" });
    const top = await domIndex(page, { scope: "viewport" });
    expect(top.length).toBeGreaterThan(3);
    expect(top.length).toBeLessThan(LONG_FORM.length);
    expect(top.map((e) => e.text)).toEqual(LONG_FORM.slice(0, top.length));
    for (const { bbox } of top) expect(bbox.y).toBeLessThan(800);
    expect(await numbered().count()).toBe(top.length);

    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const bottom = await domIndex(page, { scope: "viewport" });
    expect(bottom.at(-1)).toMatchObject({ clickId: bottom.length, tag: "button", text: "Submit" });
    expect(bottom[0]?.clickId).toBe(1);
    expect(bottom.map((e) => e.text)).not.toContain("First name");
    await page.locator(`[${CLICK_ID_ATTR}="${bottom.length}"]`).click();
    await pages.waitForRecord(
      'submitted:{"firstName":"","lastName":"","email":"","phone":"","dob":"","street":"","city":"","postcode":"","country":"","plan":"","about":"","terms":false}',
    );
  });

  it("numbers the controls inside a shadow root, which have no XPath", async () => {
    await page.goto(pages.url("shadow.html"));
    const elements = await domIndex(page);
    expect(elements).toEqual([
      { clickId: 1, tag: "input", role: "textbox", text: "Comment", xpath: null, bbox: expect.any(Object) },
      { clickId: 2, tag: "button", role: "button", text: "Rate 5 stars", xpath: null, bbox: expect.any(Object) },
    ]);
    await page.locator(`[${CLICK_ID_ATTR}="1"]`).fill("found by number");
    await pages.waitForRecord("shadow-typed:found by number");
  });

  it("scans headings and labels beside the controls, carrying the numbers the index gave", async () => {
    await page.goto(pages.url("long-form.html"));
    const index = await domIndex(page, { scope: "document" });
    const scan = await xpathScan(page, { scope: "document" });
    expect(scan.filter((e) => /^h\d$/.test(e.tag)).map((e) => e.text)).toEqual(["Create your account", "About you", "Address", "Your plan"]);
    expect(scan).toContainEqual(expect.objectContaining({ tag: "label", text: "Email" }));
    const email = index.find((e) => e.text === "Email")!;
    expect(scan.find((e) => e.tag === "input" && e.text === "Email")?.clickId).toBe(email.clickId);
    expect(scan.filter((e) => e.clickId !== undefined)).toHaveLength(index.length);
    for (const { xpath } of scan) expect(await page.locator(`xpath=${xpath}`).count()).toBe(1);

    await page.goto(pages.url("shadow.html"));
    expect((await xpathScan(page)).map((e) => e.text)).toEqual(["Rate this product"]);
  });
});

describe("the reader text", () => {
  const saved: string[] = [];
  const saveArtifact = async (text: string) => {
    saved.push(text);
    return `artifact-${saved.length}`;
  };
  const paragraphs = (count: number, sentence: string) =>
    Array.from({ length: count }, (_, i) => `<p>Paragraph ${i + 1}. ${sentence.repeat(8)}</p>`).join("\n");
  const bigArticle = (body: string) => `<html><head><title>A very long report</title></head><body><article><h1>A very long report</h1>${body}</article></body></html>`;

  it("keeps the story and drops the navigation, sidebar and footer around it", async () => {
    await page.goto(pages.url("article.html"));
    const result = await readability(page, { saveArtifact });
    expect(result).toMatchObject({ title: "River towns bet on night trains to bring back visitors", truncated: false });
    const text = result.text!;
    expect(text).toMatch(/^When the last regular passenger service stopped at Oberhafen station/);
    expect(text).toMatch(/the first tickets sold out within a day\.$/);
    expect(text.split("\n\n")).toHaveLength(7);
    for (const clutter of ["Subscribe", "Most read", "Advertisement", "Cookie settings", "Valley Courier"]) expect(text).not.toContain(clutter);
    expect(result.contentLengthBytes).toBe(Buffer.byteLength(text));
    expect(result.artifactId).toBeUndefined();
  });

  it("reads a page whose Content-Security-Policy forbids every script", async () => {
    const html = `<html><head><title>Strict</title></head><body><p id="p">The policy blocks inline scripts, yet the text can be read.</p><script>document.title = "script ran"</script></body></html>`;
    await page.route("http://strict.test/", (route) =>
      route.fulfill({ contentType: "text/html", headers: { "content-security-policy": "script-src 'none'; require-trusted-types-for 'script'" }, body: html }),
    );
    await page.goto("http://strict.test/");
    expect(await page.title()).toBe("Strict");
    expect(await readability(page, { saveArtifact })).toMatchObject({ title: "Strict", text: "The policy blocks inline scripts, yet the text can be read." });
  });

  it("hands a text of 256 KB or more to the artifact store, counting UTF-8 bytes", async () => {
    // About 105,000 characters, most of them three bytes long: over the limit only in bytes.
    await page.setContent(bigArticle(paragraphs(600, "河流城镇押注夜间列车，希望游客留下过夜。")));
    const before = saved.length;
    const result = await readability(page, { saveArtifact });
    expect(saved).toHaveLength(before + 1);
    const text = saved.at(-1)!;
    expect(text.length).toBeLessThan(256 * 1024);
    expect(result).toEqual({ title: "A very long report", contentLengthBytes: Buffer.byteLength(text), truncated: true, artifactId: `artifact-${saved.length}` });
    expect(result.contentLengthBytes).toBeGreaterThanOrEqual(256 * 1024);
    expect(text).toContain("Paragraph 600.");
  });

  it("refuses a text over 2 MB, saying how large it is", async () => {
    await page.setContent(bigArticle(paragraphs(6000, "The valley line reopened after eleven quiet years. ")));
    const before = saved.length;
    const failure = readability(page, { saveArtifact });
    await expect(failure).rejects.toMatchObject({ code: "READABILITY_TOO_LARGE", message: expect.stringMatching(/is \d+\.\d MB, over the 2\.0 MB limit/) });
    expect(saved).toHaveLength(before);
  });
});

describe("page preparation", () => {
  const FAST: [number, number] = [20, 1000];
  const loaded = async () => ({ loaded: true });
  const never = (message: string) => async (): Promise<never> => {
    throw new Error(message);
  };
  const flaky = <T>(value: T) => {
    let calls = 0;
    return async () => {
      calls++;
      if (calls === 1) throw new Error("Target page is still navigating");
      return value;
    };
  };

  it("retries a screenshot that failed once, and nothing is missing", async () => {
    const prepared = await preparePage({ loaded, screenshot: flaky("jpeg"), readability: async () => "text" }, new AbortController().signal, FAST);
    expect(prepared).toEqual({ screenshot: "jpeg", readability: "text", warnings: [], missing: [] });
  });

  it("goes on without the text when extraction keeps failing, and says so", async () => {
    const prepared = await preparePage({ loaded, screenshot: async () => "jpeg", readability: never("Readability crashed") }, new AbortController().signal, FAST);
    expect(prepared).toMatchObject({ screenshot: "jpeg", missing: ["readability"] });
    expect(prepared.readability).toBeUndefined();
    expect(prepared.warnings).toEqual(["the text extraction failed (Readability crashed) and its retry failed too (Readability crashed)"]);
  });

  it("gives up on a retry that hangs past the retry window", async () => {
    let calls = 0;
    const hangsOnRetry = () => (++calls === 1 ? Promise.reject(new Error("busy")) : new Promise<string>(() => undefined));
    const started = Date.now();
    const prepared = await preparePage({ loaded, screenshot: hangsOnRetry, readability: async () => "text" }, new AbortController().signal, [20, 300]);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(prepared).toMatchObject({ readability: "text", missing: ["screenshot"], warnings: ["the screenshot failed (busy) and its retry did not finish within 300 ms"] });
  });

  it("fails with a retryable PAGE_PREP_FAILED when neither the screenshot nor the text can be had", async () => {
    const failure = preparePage({ loaded, screenshot: never("Page crashed"), readability: never("Execution context was destroyed") }, new AbortController().signal, FAST);
    await expect(failure).rejects.toMatchObject({
      code: "PAGE_PREP_FAILED",
      retryable: true,
      message: expect.stringMatching(/Page crashed.*Execution context was destroyed/),
    });
  });

  it("warns when the page had not finished loading, and stops waiting at once on Stop", async () => {
    const prepared = await preparePage({ loaded: async () => ({ loaded: false }), screenshot: async () => "jpeg", readability: async () => "text" }, new AbortController().signal, FAST);
    expect(prepared.warnings).toEqual([expect.stringMatching(/^the page had not finished loading after \d+ ms$/)]);

    const stop = new AbortController();
    const started = Date.now();
    const stopped = preparePage({ loaded, screenshot: never("busy"), readability: never("busy") }, stop.signal, [5_000, 10_000]);
    setTimeout(() => stop.abort(new Error("stopped by the user")), 50);
    await expect(stopped).rejects.toThrow("stopped by the user");
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("waits for a slow page's late load event before going on", async () => {
    const started = Date.now();
    await page.goto(pages.url("slow.html"), { waitUntil: "commit" });
    expect(await waitForLoaded(page, 10_000)).toEqual({ loaded: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1100);
    expect(await page.evaluate(() => document.readyState)).toBe("complete");

    await page.goto(pages.url("slow.html"), { waitUntil: "commit" });
    expect(await waitForLoaded(page, 200)).toEqual({ loaded: false });
  });
});
