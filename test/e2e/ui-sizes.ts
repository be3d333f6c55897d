// The two sizes the chat UI is tried at, as a person would use it: a laptop and a phone (touch),
// and where the specs put the pictures of what they saw.
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";

export const SIZES = [
  { name: "desktop", use: { viewport: { width: 1280, height: 800 } } },
  { name: "phone", use: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true } },
] as const;

const SHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../test-results/ui-shots");

/** A picture of the page as it is, once its images have loaded, for a person to look at. */
export async function snapshot(page: Page, name: string): Promise<void> {
  await page.waitForFunction(() => [...document.images].every((image) => image.complete));
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}
