// The toolset's refs over ours: one name per element while the tab stays on the page it was read
// on, never reused, and taken back only there; a ref from another page, or one never given, is
// refused with what to do.
import { describe, expect, it } from "vitest";
import { identityOf, RefBook } from "./refs.ts";

const A = "http://127.0.0.1/a.html";
const B = "http://127.0.0.1/b.html";
const view = ['Page — "A" http://127.0.0.1/a.html', '- form "Sign up" [ref=e2]', '  - textbox "Name" [ref=e5]', '  - button "Send" [ref=f1e7]', "- paragraph: Hello"].join("\n");

describe("the browser toolset's refs", () => {
  it("names our refs ref_1, ref_2… in the view and keeps each name for its element on that page", () => {
    const refs = new RefBook();
    expect(refs.name(view, A)).toBe(['Page — "A" http://127.0.0.1/a.html', '- form "Sign up" [ref_1]', '  - textbox "Name" [ref_2]', '  - button "Send" [ref_3]', "- paragraph: Hello"].join("\n"));
    // A second read of the same page (a find, say) names the same elements the same, and new ones next.
    expect(refs.name('- button "Send" [ref=f1e7]\n- link "More" [ref=e9]', A)).toBe('- button "Send" [ref_3]\n- link "More" [ref_4]');
    expect(refs.resolve("ref_2", A)).toEqual({ ok: true, ours: "e5", role: "textbox", identity: 'textbox "Name"' });
    expect(refs.resolve("ref_3", A)).toEqual({ ok: true, ours: "f1e7", role: "button", identity: 'button "Send"' });
  });

  it("refuses a ref once the tab shows another page, and after a read there never gives its name to another element", () => {
    const refs = new RefBook();
    refs.name(view, A);
    expect(refs.resolve("ref_2", B)).toEqual({ ok: false, message: `ref_2 is stale: it was read on ${A} and the tab now shows ${B}. Call read_page or find again and use a ref from its result.` });
    // Read on B, the same ref of ours is another element: it gets a new name, and the old one stays stale even back on A.
    expect(refs.name('- textbox "Query" [ref=e5]', B)).toBe('- textbox "Query" [ref_4]');
    expect(refs.resolve("ref_4", B)).toEqual({ ok: true, ours: "e5", role: "textbox", identity: 'textbox "Query"' });
    expect(refs.name('- link "Home" [ref=e1]', A)).toBe('- link "Home" [ref_5]');
    expect(refs.resolve("ref_2", A)).toEqual({ ok: false, message: `ref_2 is stale: the tab left ${A} and came back since it was read. Call read_page or find again and use a ref from its result.` });
  });

  it("refuses a ref it never gave", () => {
    expect(new RefBook().resolve("ref_9", A)).toEqual({ ok: false, message: "ref_9 is not a ref this browser gave. Call read_page or find again and use a ref from its result." });
  });

  it("gives a new name to an element read as another role or name, and refuses the old one", () => {
    const refs = new RefBook();
    refs.name('- button "Show more" [ref=e4]', A);
    expect(refs.name('- button "Show less" [ref=e4]\n- paragraph: text', A)).toBe('- button "Show less" [ref_2]\n- paragraph: text');
    expect(refs.resolve("ref_2", A)).toMatchObject({ ok: true, ours: "e4", identity: 'button "Show less"' });
    expect(refs.resolve("ref_1", A)).toEqual({
      ok: false,
      message: 'ref_1 is stale: it was read as button "Show more", and the page now has button "Show less" there. Call read_page or find again and use a ref from its result.',
    });
    expect(identityOf('  - textbox "Name" [ref=e3]: Bo')).toEqual({ role: "textbox", identity: 'textbox "Name"' });
    expect(identityOf('- form "Sign up" {"section":"e2"}: 3 textboxes')).toEqual({ role: "form", identity: 'form "Sign up"' });
    expect(identityOf("- generic [ref=e9]")).toEqual({ role: "generic", identity: "generic" });
  });
});
