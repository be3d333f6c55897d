// Page preparation and extraction (§4.2 B, C): a JPEG screenshot through CDP, the reader-mode
// text, and a page's (or one element's) HTML — the large ones uploaded to the artifact service.
import { ARTIFACT_MAX_BYTES, READABILITY_INLINE_BYTES, READABILITY_MAX_BYTES } from "../../../../src/protocol/extension.ts";
import { ActionError } from "../action-error.ts";
import { uploadArtifact } from "../artifacts.ts";
import * as cdp from "../debugger.ts";
import { base64Bytes, jpegSize } from "../jpeg-size.ts";
import { callPage } from "../page-call.ts";
import { taskTab } from "../tasks.ts";
import type { ActionContext, ActionHandler } from "./context.ts";

/** Taller full-page shots are cut here: beyond it the image is too big to be of use to a model. */
const FULL_PAGE_MAX_CSS_PX = 16_384;
const QUALITIES = [80, 50];

interface LayoutMetrics {
  cssContentSize?: { width: number; height: number };
  contentSize: { width: number; height: number };
}

export const screenshot: ActionHandler<"browser_screenshot"> = async (params, ctx) => {
  const tab = await taskTab(ctx.taskId, params.tabId, ctx.settings.serverUrl);
  const bytes = await capture(tab, params.fullPage ?? false, ctx);
  const size = jpegSize(bytes);
  if (!size) throw new ActionError("ACTION_FAILED", "The screenshot is not a readable JPEG.", true);
  const { artifactId, url } = await uploadArtifact(ctx.settings, bytes, "image/jpeg");
  return { artifactId, url, ...size };
};

async function capture(tab: chrome.tabs.Tab, fullPage: boolean, ctx: ActionContext): Promise<Uint8Array> {
  const tabId = tab.id!;
  try {
    // A screenshot has no DOM fallback, so it takes hold of the tab itself when not yet held.
    await cdp.attach(tabId);
  } catch (err) {
    // The person is looking at the tab: what they see can still be captured, without CDP.
    if (!tab.active || fullPage) throw err;
    ctx.warnings.push(`CDP is unavailable (${err instanceof Error ? err.message : String(err)}); captured the visible tab instead.`);
    const dataUrl = await chrome.tabs.captureVisibleTab(tab.windowId, { format: "jpeg", quality: QUALITIES[0] });
    return base64Bytes(dataUrl.slice(dataUrl.indexOf(",") + 1));
  }
  let clip: object | undefined;
  if (fullPage) {
    const metrics = await cdp.send<LayoutMetrics>(tabId, "Page.getLayoutMetrics");
    const content = metrics.cssContentSize ?? metrics.contentSize;
    let height = Math.ceil(content.height);
    if (height > FULL_PAGE_MAX_CSS_PX) {
      ctx.warnings.push(`The page is ${height} CSS px tall; the full-page screenshot stops at ${FULL_PAGE_MAX_CSS_PX}.`);
      ctx.partial = true;
      height = FULL_PAGE_MAX_CSS_PX;
    }
    clip = { x: 0, y: 0, width: Math.ceil(content.width), height, scale: 1 };
  }
  let bytes: Uint8Array = new Uint8Array();
  for (const quality of QUALITIES) {
    const { data } = await cdp.send<{ data: string }>(tabId, "Page.captureScreenshot", { format: "jpeg", quality, ...(clip ? { clip, captureBeyondViewport: true } : {}) });
    bytes = base64Bytes(data);
    if (bytes.byteLength <= ARTIFACT_MAX_BYTES) return bytes;
  }
  throw new ActionError("ACTION_FAILED", `The screenshot is ${(bytes.byteLength / 1048576).toFixed(1)} MB even at low quality, over the artifact limit.`, false);
}

export const readabilityExtract: ActionHandler<"browser_readability_extract"> = async (params, ctx) => {
  await taskTab(ctx.taskId, params.tabId, ctx.settings.serverUrl);
  const { title, text, bytes } = await callPage(params.tabId, "readerText", { maxBytes: READABILITY_MAX_BYTES });
  const found = { ...(title ? { title } : {}), contentLengthBytes: bytes };
  if (text === null) {
    throw new ActionError(
      "READABILITY_TOO_LARGE",
      `The page's readable text is ${(bytes / 1048576).toFixed(1)} MB, over the ${READABILITY_MAX_BYTES / 1048576} MB limit. Work from the screenshot, or open a narrower page (one article or section).`,
    );
  }
  if (bytes >= READABILITY_INLINE_BYTES) {
    const { artifactId } = await uploadArtifact(ctx.settings, text, "text/plain; charset=utf-8");
    return { ...found, artifactId, text: "", truncated: true };
  }
  return { ...found, text, truncated: false };
};

export const getHtml: ActionHandler<"browser_get_html"> = async (params, ctx) => {
  await taskTab(ctx.taskId, params.tabId, ctx.settings.serverUrl);
  const html = await callPage(params.tabId, "html", params.xpath === undefined ? {} : { xpath: params.xpath });
  return uploadArtifact(ctx.settings, html, "text/html; charset=utf-8");
};
