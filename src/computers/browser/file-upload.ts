// Puts a file into a page (computers/computer.ts `upload`): at a point, into the file input there
// (the element itself, the control of the label there, or the one file input inside what is
// there), followed into frames and shadow roots; without a point, into the file chooser the page
// opened last, which Playwright holds for us once anyone listens for it (page-effects.ts).
// Nothing is clicked here: a button that opens a chooser is clicked as any click, judged as one.
import type { ElementHandle, FileChooser, Page } from "playwright-core";
import { AppError } from "../../core/errors.ts";
import type { Point, UploadFile } from "../computer.ts";
import { deepElement } from "./element-risks.ts";

const UPLOAD_TIMEOUT_MS = 10_000;

/** `at`: CSS pixels of the viewport; `chooser`: takes the file chooser the page has open, if any. */
export async function uploadFile(page: Page, file: UploadFile, at: Point | null, chooser: () => FileChooser | null): Promise<void> {
  if (!at) {
    const open = chooser();
    if (!open) {
      throw new AppError("ACTION_FAILED", `No file chooser is open on the page to put "${file.name}" into: give the point of the file input, or click the page's button that opens the chooser first.`);
    }
    await open.setFiles(file.path, { timeout: UPLOAD_TIMEOUT_MS });
    return;
  }
  const element = await deepElement(page, at);
  if (!element) throw new AppError("ACTION_FAILED", `Nothing is at (${Math.round(at.x)}, ${Math.round(at.y)}) to put "${file.name}" into.`);
  try {
    const input = await fileInputOf(element);
    if (!input) {
      const what = await element.evaluate(describe);
      throw new AppError("ACTION_FAILED", `${what} is not a file input: point at the file input itself, or click it so that the page opens its file chooser and upload without a point.`);
    }
    try {
      await input.setInputFiles(file.path, { timeout: UPLOAD_TIMEOUT_MS });
    } finally {
      await input.dispose();
    }
  } finally {
    await element.dispose();
  }
}

/** The file input an element stands for, or null. */
async function fileInputOf(element: ElementHandle<Element>): Promise<ElementHandle<HTMLInputElement> | null> {
  const found = await element.evaluateHandle(findFileInput);
  const input = found.asElement() as ElementHandle<HTMLInputElement> | null;
  if (!input) await found.dispose();
  return input;
}

// Runs in the page: the file input itself, the one its label names, or the only one inside it
// (a drop zone that hides its input); null for anything else. It names no function inside: under
// tsx (the `easyagentcu` command) a named one is wrapped in a helper the page does not have.
function findFileInput(element: Element): HTMLInputElement | null {
  const inside = element.querySelectorAll("input[type=file]");
  for (const candidate of [element, element.closest("label")?.control, inside.length === 1 ? inside[0] : null]) {
    if (candidate instanceof HTMLInputElement && candidate.type === "file") return candidate;
  }
  return null;
}

// Runs in the page: the element as a person would name it.
function describe(element: Element): string {
  const name = (element.getAttribute("aria-label") ?? (element as HTMLElement).innerText ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
  return `<${element.localName}>${name ? ` "${name}"` : ""}`;
}
