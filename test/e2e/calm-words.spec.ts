// What a person reads and touches is plain and calm: their own takeover and their Deny are no
// failures, a wait that changed nothing is no error, the sidebar does not call them to a screen they
// already have, a model address that answers no JSON is named for what it is; on a phone the
// screen's buttons are 44 × 44 px; long unbroken words wrap; a frame that fails to load leaves the
// last good one; a task asked for with a start page shows no "Stop answering"; the approval's mark
// leaves the label readable, and its picture can be enlarged.
import { DEFAULT_APPROVAL_POLICY } from "../../src/core/approval-policy.ts";
import { gate } from "../support/gate.ts";
import { act } from "../support/scripted-model.ts";
import { expect, test } from "./fixtures.ts";

test("the person's takeover is theirs, not a failure, and the sidebar does not call them to it", async ({ chat, model, pages, page }) => {
  const asked = gate();
  model.script(
    act("move", { x: 600, y: 500 }, "Looking at the form"),
    { ...act("move", { x: 600, y: 520 }, "Looking again"), until: asked.held },
    { ...act("done", { answer: "Done." }, "Finished"), delayMs: 60_000 },
  );
  await chat.open();
  await chat.send("read the form", pages.url("form.html"));
  const card = chat.card();
  await expect(card.scrubber).toHaveAttribute("aria-valuemax", "1");
  // The model's next answer comes only once the server has handed the screen over, so the
  // action it names is one the person's takeover stops, not one already under way.
  const handedOver = page.waitForResponse((response) => response.url().endsWith("/api/chat/takeover") && response.ok());
  await card.root.getByRole("button", { name: "Take over" }).click();
  await handedOver;
  asked.open();
  await expect(card.root).toHaveAttribute("data-status", "takeover");
  await expect(card.latestProgress).toHaveText("Looking again — not done: you had the screen");
  await expect(page.getByTestId("session-status").first()).toHaveAttribute("data-status", "with_you");
  await expect(page.getByTestId("session-status").first()).toHaveText("With you");
});

test.describe("with approvals", () => {
  test.use({ appConfig: { approvals: DEFAULT_APPROVAL_POLICY } });

  test("a Deny reads as the person's choice; the mark leaves the label readable and the picture enlarges", async ({ chat, model, pages, page }) => {
    model.script(act("click", { x: 180, y: 120 }, "Deleting the account"), { ...act("done", { answer: "Done." }, "Finished"), delayMs: 60_000 });
    await chat.open();
    await chat.send("delete my account", pages.url("approvals.html"));
    const card = chat.card();
    await expect(card.root).toHaveAttribute("data-status", "awaiting_user");
    const lines = (await card.answer.innerText()).split("\n").filter((line) => line.trim());
    expect(new Set(lines).size).toBe(lines.length);
    const mark = card.root.getByTestId("approval-target");
    expect(await mark.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe("rgba(0, 0, 0, 0)");

    await card.root.getByRole("button", { name: "Enlarge the picture" }).click();
    const enlarged = page.getByRole("dialog", { name: "The screen, enlarged" }).getByRole("img", { name: /The screen before/ });
    await expect(enlarged).toBeVisible();
    expect((await enlarged.boundingBox())!.width).toBeGreaterThanOrEqual(1280);
    await page.keyboard.press("Escape");

    await card.root.getByRole("button", { name: "Deny" }).click();
    await expect(card.root).toHaveAttribute("data-status", "running");
    await expect(card.latestProgress).toHaveText("Deleting the account — not done: you did not allow it");
  });
});

test("a wait that changes nothing is no error", async ({ chat, model, pages }) => {
  model.script(act("wait", { ms: 200 }, "Waiting for the page to settle"), { ...act("done", { answer: "Done." }, "Finished"), delayMs: 60_000 });
  await chat.open();
  await chat.send("wait for the page", pages.url("form.html"));
  const card = chat.card();
  await expect(card.scrubber).toHaveAttribute("aria-valuemax", "1");
  await card.scrubber.press("Home");
  const checks = card.root.getByTestId("step-checks");
  await expect(checks).toHaveText("The screen stayed as it was");
});

test.describe("with no retries", () => {
  test.use({ appConfig: { model: { httpRetries: 0 } } });

  test("a model address that answers no JSON is named for what it is", async ({ chat, model, page }) => {
    model.chat({ status: 200, body: "<html><body>Welcome to my blog</body></html>", headers: { "content-type": "text/html" } });
    await chat.open();
    await chat.send("hello?");
    const failure = page.getByTestId("failed-answer");
    await expect(failure).toContainText("The model's address answered, but not as an AI model does (no JSON reply).");
    await expect(failure).not.toContainText("returned an error");
  });
});

test("a task asked for with a start page shows that it is starting, with no Stop answering", async ({ chat, model, pages, page }) => {
  const started = gate();
  model.chat({ chat: { calls: [{ name: "computer_task", arguments: { task: "open the form page", start_url: pages.url("form.html") } }] }, until: started.held });
  model.script(act("done", { answer: "Opened." }, "Finished"));
  await chat.open();
  await chat.send("open the form page", pages.url("form.html"));
  await expect(page.getByRole("status").filter({ hasText: "Starting…" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Stop answering" })).toHaveCount(0);
  await expect(page.getByText("Thinking…")).toHaveCount(0);
  started.open();
  await expect(chat.card().root).toHaveAttribute("data-status", "completed");
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, allowedConsoleErrors: [/Failed to load resource/] });

  test("the screen's buttons take a finger, long words wrap, and a frame that fails leaves the last good one", async ({ chat, model, pages, page }) => {
    const next = gate();
    model.script(act("move", { x: 600, y: 500 }, "Looking"), { ...act("click", { x: 200, y: 130 }, "Pressing the button"), until: next.held }, { ...act("done", { answer: "Done." }, "Finished"), delayMs: 60_000 });
    const long = "https://example.com/" + "a".repeat(300);
    await chat.open();
    await chat.send(`read the form, then ${long}`, pages.url("form.html"));
    const card = chat.card();
    await expect(card.scrubber).toHaveAttribute("aria-valuemax", "1");
    for (const name of ["Take over", "Enlarge the screen", "Stop the task"]) {
      const box = (await card.root.getByRole("button", { name }).boundingBox())!;
      expect(box.width, name).toBeGreaterThanOrEqual(44);
      expect(box.height, name).toBeGreaterThanOrEqual(44);
    }
    const bubble = page.getByTestId("user-message").first().locator("div").first();
    expect(await bubble.evaluate((element) => element.scrollWidth <= element.clientWidth + 1)).toBe(true);
    expect((await bubble.boundingBox())!.x + (await bubble.boundingBox())!.width).toBeLessThanOrEqual(390);

    // The frames the server sends from now on fail to load: the screen keeps the last good one.
    await page.waitForFunction(() => [...document.images].every((image) => image.complete));
    const shown = await card.screenImage.getAttribute("src");
    await page.route(/\/api\/frames\//, (route) => route.abort());
    next.open();
    await expect(card.scrubber).toHaveAttribute("aria-valuemax", "2");
    await expect.poll(() => card.screen.evaluate((figure) => [...figure.querySelectorAll("img")].every((img) => img.complete && img.naturalWidth > 0))).toBe(true);
    await expect.poll(() => card.screen.evaluate((figure) => figure.querySelectorAll("img").length)).toBe(0);
    expect(await card.screen.getByTestId("last-good-frame").evaluate((layer) => layer.style.backgroundImage)).toContain(shown!);
  });
});
