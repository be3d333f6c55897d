import type { BrowserContext } from "playwright-core";
import { describe, expect, it } from "vitest";
import { addCookies, SignIns } from "./sign-ins.ts";

const cookie = (name: string) => ({ name, value: "v", domain: "example.com", path: "/", expires: -1, httpOnly: true, secure: false, sameSite: "Lax" as const });

describe("SignIns", async () => {
  it("gives a chat's next task the cookies its last one kept, and no other chat", async () => {
    const signIns = new SignIns();
    expect((await signIns.of("a")).cookies).toEqual([]);
    (await signIns.of("a")).keep([cookie("one")]);
    (await signIns.of("a")).keep([cookie("one"), cookie("two")]);
    expect((await signIns.of("a")).cookies).toEqual([cookie("one"), cookie("two")]);
    expect((await signIns.of("b")).cookies).toEqual([]);
    signIns.forget("a");
    expect((await signIns.of("a")).cookies).toEqual([]);
  });

  it("takes nothing from a browser opened before the chat was forgotten, or before a later task kept its own", async () => {
    const signIns = new SignIns();
    const beforeDelete = (await signIns.of("a"));
    signIns.forget("a");
    const afterDelete = (await signIns.of("a"));
    beforeDelete.keep([cookie("deleted")]);
    expect((await signIns.of("a")).cookies).toEqual([]);

    const earlier = (await signIns.of("a"));
    afterDelete.keep([cookie("kept")]);
    earlier.keep([cookie("late")]);
    expect((await signIns.of("a")).cookies).toEqual([cookie("kept")]);
  });

  it("keeps nothing from a browser that changed nothing: one whose task was stopped while it opened, closed before or after the next task's", async () => {
    const signIns = new SignIns();
    (await signIns.of("a")).keep([cookie("signed-in")]);
    for (const order of ["stopped first", "next first"]) {
      const stopped = (await signIns.of("a"));
      const next = (await signIns.of("a"));
      const signedIn = stopped.cookies;
      const moved = [...signedIn, cookie(order)];
      if (order === "stopped first") stopped.keep(signedIn);
      next.keep(moved);
      if (order === "next first") stopped.keep(signedIn);
      expect((await signIns.of("a")).cookies).toEqual(moved);
    }
  });

  it("forgets the chat that opened a browser longest ago past 100 chats", async () => {
    const signIns = new SignIns();
    for (let i = 0; i <= 100; i++) (await signIns.of(`chat-${i}`)).keep([cookie(`c${i}`)]);
    expect((await signIns.of("chat-1")).cookies).toEqual([cookie("c1")]);
    expect((await signIns.of("chat-100")).cookies).toEqual([cookie("c100")]);
    expect((await signIns.of("chat-0")).cookies).toEqual([]);
  });
});

describe("addCookies", () => {
  it("leaves out a cookie the browser refuses, not the others with it", async () => {
    // Chromium refuses a __Host- cookie that is not secure ("Invalid cookie fields"), and with it the whole call.
    const jar: string[] = [];
    const context = {
      addCookies: async (cookies: ReturnType<typeof cookie>[]) => {
        if (cookies.some((c) => c.name.startsWith("__Host-"))) throw new Error("Protocol error (Storage.setCookies): Invalid cookie fields");
        jar.push(...cookies.map((c) => c.name));
      },
    } as unknown as BrowserContext;
    await addCookies(context, [cookie("one"), cookie("__Host-bad"), cookie("two")]);
    expect(jar).toEqual(["one", "two"]);
  });
});
