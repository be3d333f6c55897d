// The rule that tells an answer asking the person to act from one that ends the task.
import { describe, expect, it } from "vitest";
import { askedOfPerson } from "./asks-person.ts";

describe("an answer that asks the person", () => {
  it("is one that opens with the marker, which the person does not see", () => {
    expect(askedOfPerson("NEEDS_USER: Please solve the CAPTCHA, then press I've done it.")).toBe("Please solve the CAPTCHA, then press I've done it.");
    expect(askedOfPerson("  needs_user:   Confirm the payment of 12 €.")).toBe("Confirm the payment of 12 €.");
  });

  it("is one whose last paragraph asks them to do what only they can, marker or not", () => {
    expect(askedOfPerson("I reached the shop.\n\nPlease sign in with your account, then tell me.")).toBe("I reached the shop.\n\nPlease sign in with your account, then tell me.");
    expect(askedOfPerson("You need to log in before I can see the orders.")).not.toBeNull();
    expect(askedOfPerson("Could you confirm which of the two addresses to use?")).not.toBeNull();
  });

  it("is not an answer that reports what was done", () => {
    expect(askedOfPerson("The form says **Typed Ada**.")).toBeNull();
    expect(askedOfPerson("I signed in and the order is placed. Is there anything else I can help with?")).toBeNull();
    expect(askedOfPerson("Please note: the price is 12 €.")).toBeNull();
    expect(askedOfPerson("")).toBeNull();
  });
});
