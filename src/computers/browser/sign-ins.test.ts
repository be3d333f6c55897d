import { describe, expect, it } from "vitest";
import { SignIns } from "./sign-ins.ts";

const cookie = (name: string) => ({ name, value: "v", domain: "example.com", path: "/", expires: -1, httpOnly: true, secure: false, sameSite: "Lax" as const });

describe("SignIns", () => {
  it("gives a chat's next task the cookies its last one kept, and no other chat", () => {
    const signIns = new SignIns();
    expect(signIns.of("a").cookies).toEqual([]);
    signIns.of("a").keep([cookie("one")]);
    signIns.of("a").keep([cookie("one"), cookie("two")]);
    expect(signIns.of("a").cookies).toEqual([cookie("one"), cookie("two")]);
    expect(signIns.of("b").cookies).toEqual([]);
    signIns.forget("a");
    expect(signIns.of("a").cookies).toEqual([]);
  });

  it("takes nothing from a browser opened before the chat was forgotten, or before a later task kept its own", () => {
    const signIns = new SignIns();
    const beforeDelete = signIns.of("a");
    signIns.forget("a");
    const afterDelete = signIns.of("a");
    beforeDelete.keep([cookie("deleted")]);
    expect(signIns.of("a").cookies).toEqual([]);

    const stopped = signIns.of("a");
    afterDelete.keep([cookie("kept")]);
    // A task stopped while its browser opened closes that browser after the next task kept its cookies.
    stopped.keep([cookie("late")]);
    expect(signIns.of("a").cookies).toEqual([cookie("kept")]);
  });

  it("forgets the chat that opened a browser longest ago past 100 chats", () => {
    const signIns = new SignIns();
    for (let i = 0; i <= 100; i++) signIns.of(`chat-${i}`).keep([cookie(`c${i}`)]);
    expect(signIns.of("chat-1").cookies).toEqual([cookie("c1")]);
    expect(signIns.of("chat-100").cookies).toEqual([cookie("c100")]);
    expect(signIns.of("chat-0").cookies).toEqual([]);
  });
});
