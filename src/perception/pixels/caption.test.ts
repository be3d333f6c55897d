import { describe, expect, it } from "vitest";
import { isCaption } from "./caption.ts";

describe("words under a desktop click, as a caption to press or as content", () => {
  it.each(["Delete", "Move to Trash…", "Empty Trash...", "Send  message", "Pay $9.99", "删除"])("%s is a caption", (words) => {
    expect(isCaption(words)).toBe(true);
  });

  it.each(["post.txt", "Post meeting notes today", "Done. Delete it", "", "   "])("%j is not", (words) => {
    expect(isCaption(words)).toBe(false);
  });
});
