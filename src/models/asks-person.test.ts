// The one rule that tells an answer asking the person to act from one that ends the task, as
// Claude, Gemini and OpenAI's models write them.
import { describe, expect, it } from "vitest";
import { askedOfPerson } from "./asks-person.ts";

describe("an answer that asks the person", () => {
  it("is one that opens with the marker, which the person does not see", () => {
    expect(askedOfPerson("NEEDS_USER: Please solve the CAPTCHA, then press I've done it.")).toBe("Please solve the CAPTCHA, then press I've done it.");
    expect(askedOfPerson("  needs_user:   Confirm the payment of 12 €.")).toBe("Confirm the payment of 12 €.");
  });

  it.each([
    "Please sign in to your account, then tell me when it is done.",
    "The site wants a code. You will need to enter the code sent to your phone.",
    "Which of the two accounts should I use?",
    "I found two flights.\nShould I book the cheaper one?",
    "Please solve the captcha and let me know.",
    "The shop wants a sign-in; press “I've done it” once you are in.",
    "Please sign in to your account, then let me know when you are done.",
    "The site shows a captcha. I need you to solve it.",
    "Once you've approved the payment on your phone, tell me.",
    "I reached the shop.\n\nPlease sign in with your account, then tell me.",
    "You need to log in before I can see the orders.",
    "Could you confirm which of the two addresses to use?",
  ])("asks: %s", (text) => {
    expect(askedOfPerson(text)).toBe(text);
  });

  it.each([
    "Done: the form says **Typed Ada**.",
    "The order is placed. Please check your email for the confirmation.",
    "The page explains how to sign in; the answer is 42.",
    "I've done it: the form is sent.",
    "I found three red shoes under 50 €: …",
    "I signed in and the order is placed. Is there anything else I can help with?",
    "The flight is booked. Let me know if you need anything else.",
    "Please note: the price is 12 €.",
    "",
  ])("reports: %s", (text) => {
    expect(askedOfPerson(text)).toBeNull();
  });
});
