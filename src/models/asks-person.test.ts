import { describe, expect, it } from "vitest";
import { asksThePerson } from "./asks-person.ts";

describe("asksThePerson", () => {
  it.each([
    "Please sign in to your account, then tell me when it is done.",
    "The site wants a code. You will need to enter the code sent to your phone.",
    "Which of the two accounts should I use?",
    "I found two flights.\nShould I book the cheaper one?",
    "Please solve the captcha and let me know.",
    "The shop wants a sign-in; press “I've done it” once you are in.",
  ])("asks: %s", (text) => {
    expect(asksThePerson(text)).toBe(text);
  });

  it.each([
    "Done: the form says **Typed Ada**.",
    "The order is placed. Please check your email for the confirmation.",
    "The page explains how to sign in; the answer is 42.",
    "I've done it: the form is sent.",
    "",
  ])("reports: %s", (text) => {
    expect(asksThePerson(text)).toBeNull();
  });
});
