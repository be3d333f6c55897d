// The approval policy's classifier on forms inside frames: the element under a point, and the
// focused one, are found inside frames of the page's own origin and of another one, and inside a
// shadow root within such a frame, so that a form there is judged as itself — and, in a frame of
// another origin, toward that origin — rather than as the <iframe> that holds it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserHost } from "../../src/computers/browser/browser-host.ts";
import type { BrowserComputer } from "../../src/computers/browser/browser-computer.ts";
import { fixtureHost, openScreen } from "../support/fixture-browser.ts";
import { startFixtureServer, type FixtureServer } from "../support/fixture-server.ts";

let pages: FixtureServer;
let host: BrowserHost;
let computer: BrowserComputer;
/** The framed page's origin, and the other one it frames a sign-in form of. */
let home: string;
let partner: string;

// Where framed-form.html puts the framed controls, in the page's (and the screenshot's) pixels.
const NAME = { x: 235, y: 205 };
const PASSWORD = { x: 235, y: 265 };
const VERIFY = { x: 235, y: 325 };
const PIN = { x: 515, y: 205 };
const CHECK_PIN = { x: 515, y: 265 };

beforeAll(async () => {
  pages = await startFixtureServer();
  home = new URL(pages.url("framed-form.html")).origin;
  partner = home.replace("127.0.0.1", "localhost");
  host = fixtureHost();
  computer = await openScreen(host);
});
afterAll(async () => {
  await computer?.close();
  await host?.close();
  await pages?.close();
});

/**
 * Clicks a field of a form, again until the field has the focus (a frame of another site takes
 * clicks once it is drawn): Enter in it then submits its form.
 */
async function focus(at: { x: number; y: number }): Promise<void> {
  await expect
    .poll(async () => {
      await computer.click(at.x, at.y);
      return (await computer.web.risksOf("focused", "enter")).length;
    })
    .toBeGreaterThan(0);
}

describe("a sign-in form in a frame of another origin", () => {
  beforeAll(() => computer.navigate(pages.url("framed-form.html")));

  it("is judged toward the frame's origin when its button is clicked, and the frame is named with the button's box", async () => {
    expect(await computer.web.risksOf(VERIFY, "click")).toEqual([{ kind: "submit", message: "submits the form", origin: partner }]);
    expect(await computer.web.frameOf(VERIFY)).toEqual({ origin: partner, box: { x: 135, y: 305, width: 200, height: 40 } });
    // The page's own heading is no frame's.
    expect(await computer.web.frameOf({ x: 300, y: 40 })).toBeNull();
  });

  it("finds the focused password field inside it: typing there is sensitive and Enter submits, both toward the frame's origin", async () => {
    await focus(PASSWORD);
    expect(await computer.web.risksOf("focused", "type")).toEqual([{ kind: "sensitive_field", message: "types into a password field", origin: partner }]);
    expect(await computer.web.risksOf("focused", "enter")).toEqual([{ kind: "submit", message: "submits the form", origin: partner }]);
    expect(await computer.web.frameOf("focused")).toEqual({ origin: partner, box: { x: 135, y: 245, width: 200, height: 40 } });
  });

  it("finds a form inside a shadow root of the frame, under the pointer and with the focus", async () => {
    expect(await computer.web.risksOf(CHECK_PIN, "click")).toEqual([{ kind: "submit", message: "submits the form", origin: partner }]);
    await focus(PIN);
    expect(await computer.web.risksOf("focused", "type")).toEqual([{ kind: "sensitive_field", message: "types into a password field", origin: partner }]);
    expect(await computer.web.frameOf("focused")).toMatchObject({ origin: partner });
  });
});

describe("the same form in a frame of the page's own origin", () => {
  beforeAll(() => computer.navigate(pages.url("framed-form.html?same")));

  it("is judged as the page's own form, and no other frame is named", async () => {
    expect(await computer.web.risksOf(VERIFY, "click")).toEqual([{ kind: "submit", message: "submits the form", origin: home }]);
    await focus(NAME);
    expect(await computer.web.risksOf("focused", "type")).toEqual([]);
    expect(await computer.web.risksOf("focused", "enter")).toEqual([{ kind: "submit", message: "submits the form", origin: home }]);
    expect(await computer.web.frameOf("focused")).toBeNull();
  });
});
