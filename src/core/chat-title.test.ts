import { describe, expect, it } from "vitest";
import { summariseTitle } from "./chat-title.ts";

describe("a chat's title from its first message", () => {
  it.each([
    ["the first chat", "the first chat"],
    ["Please can you open example.com and find the price. Then tell me.", "open example.com and find the price"],
    ["Hey, could you please book a table for two at Luigi's tomorrow evening around seven thirty", "book a table for two at Luigi's tomorrow…"],
    ["What is 2+2? Explain.", "What is 2+2?"],
    ["  \n\n  summarise   this\tpage;  then save it", "summarise this page"],
    ["请帮我打开网页。然后截图", "打开网页"],
    ["please", "please"],
    ["", "New chat"],
    ["https://example.com/a/very/long/path/that/goes/on/and/on/and/on/forever", "https://example.com/a/very/long/path/that/goes/…"],
  ])("%j → %j", (text, title) => {
    expect(summariseTitle(text)).toBe(title);
  });

  it("never exceeds 48 characters", () => {
    expect([...summariseTitle("word ".repeat(40))].length).toBeLessThanOrEqual(48);
  });
});
