import { describe, expect, it } from "vitest";
import { Secrets } from "./secrets.ts";

describe("a secret's value, wherever an address writes it", () => {
  const secrets = new Secrets({ shop_password: "Hunter2!(x) y~" });

  it("is its placeholder as written, as a URL's part and as a GET form's field, escapes in either case", () => {
    for (const written of ["Hunter2!(x) y~", encodeURIComponent("Hunter2!(x) y~"), "Hunter2%21%28x%29+y%7E", "hunter2"]) {
      const url = `https://shop.example/search?q=${written}&page=2`;
      expect(secrets.conceal(url), written).toBe(written === "hunter2" ? url : "https://shop.example/search?q=%shop_password%&page=2");
    }
    expect(secrets.conceal("q=Hunter2%21%28x%29+y%7e")).toBe("q=%shop_password%");
  });
});

describe("secrets revealed", () => {
  it("are each computer's own: a fresh set of the same values has revealed none", () => {
    const server = new Secrets({ pin: "4711-0815" });
    const one = server.fresh();
    const other = server.fresh();
    expect(one.reveal("%pin%")).toBe("4711-0815");
    expect(one.revealed).toEqual(["4711-0815"]);
    expect(other.revealed).toEqual([]);
    expect(other.reveal("%pin%")).toBe("4711-0815");
  });
});
