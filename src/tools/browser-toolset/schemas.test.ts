// The browser toolset's member inputs as its reference writes them, translated to our schemas: the
// JSON Schema the members are checked against has the reference's fields, a target by ref or by
// viewport point, and what a model sends in the reference's shape is taken as it is.
import { describe, expect, it } from "vitest";
import { toolSpec } from "../../models/chat/conversation.ts";
import { browserMembers } from "./index.ts";
import { chordsOf, formAction } from "./acting.ts";

const members = browserMembers({ vision: true, computer: "browser" });
const member = (name: string) => members.find((m) => m.name === name)!;
const schema = (name: string) => toolSpec(member(name)).parameters as { properties: Record<string, unknown>; required?: string[] };

describe("the browser toolset's member inputs", () => {
  it("serves the reference's member names, screenshot only to a model that takes images, the tab members only in our own browser", () => {
    expect(members.map((m) => m.name).sort()).toEqual(
      ["close_tab", "file_upload", "find", "form_input", "get_page_text", "hover", "key", "left_click", "list_tabs", "navigate", "new_tab", "read_page", "screenshot", "scroll", "scroll_to", "switch_tab", "type", "wait"].sort(),
    );
    expect(browserMembers({ vision: false, computer: "browser" }).map((m) => m.name)).not.toContain("screenshot");
    expect(browserMembers({ vision: true, computer: "extension" }).map((m) => m.name).filter((name) => name.endsWith("_tab"))).toEqual([]);
  });

  it("has each member's fields as the reference names them", () => {
    expect(Object.keys(schema("read_page").properties).sort()).toEqual(["depth", "filter", "ref", "tab_id"]);
    expect(schema("read_page").required ?? []).toEqual([]);
    expect(Object.keys(schema("left_click").properties).sort()).toEqual(["modifiers", "tab_id", "target"]);
    expect(schema("left_click").required).toEqual(["target"]);
    expect(schema("form_input").required).toEqual(["target", "value"]);
    expect(schema("scroll").required).toEqual(["scroll_direction", "target"]);
    expect(schema("find").required).toEqual(["query"]);
    expect(schema("navigate").required).toEqual(["url"]);
    expect(schema("wait").required).toEqual(["duration"]);
    expect(schema("key").required).toEqual(["text"]);
    expect(Object.keys(schema("file_upload").properties).sort()).toEqual(["document_ids", "paths", "tab_id", "target"]);
    expect(schema("file_upload").required).toEqual(["target"]);
  });

  it("takes reference-shaped inputs and refuses a target of the wrong kind", () => {
    const ok = (name: string, input: unknown) => member(name).input.safeParse(input).success;
    expect(ok("left_click", { target: { type: "ref", ref: "ref_7" } })).toBe(true);
    expect(ok("left_click", { target: { type: "coordinate", x: 120, y: 40 }, tab_id: "tab_1" })).toBe(true);
    expect(ok("hover", { target: { type: "coordinate", x: 1, y: 2 } })).toBe(true);
    expect(ok("form_input", { target: { type: "ref", ref: "ref_2" }, value: true })).toBe(true);
    expect(ok("form_input", { target: { type: "ref", ref: "ref_2" }, value: 3 })).toBe(true);
    expect(ok("form_input", { target: { type: "coordinate", x: 1, y: 2 }, value: "a" })).toBe(false);
    expect(ok("scroll_to", { target: { type: "coordinate", x: 1, y: 2 } })).toBe(false);
    expect(ok("scroll", { scroll_direction: "down", target: { type: "coordinate", x: 1, y: 2 }, scroll_amount: 5 })).toBe(true);
    expect(ok("scroll", { scroll_direction: "down", target: { type: "ref", ref: "ref_1" } })).toBe(false);
    expect(ok("read_page", { filter: "interactive", depth: 4, ref: "ref_3" })).toBe(true);
    expect(ok("wait", { duration: 31 })).toBe(false);
    expect(ok("file_upload", { target: { type: "ref", ref: "ref_4" }, paths: ["cv.pdf"] })).toBe(true);
    expect(ok("file_upload", { target: { type: "coordinate", x: 1, y: 2 }, paths: ["cv.pdf"] })).toBe(false);
  });

  it("sets a form element by its role and value, and reads key sequences as chords", () => {
    expect(formAction("checkbox", true)).toEqual({ kind: "check", checked: true });
    expect(formAction("combobox", "France")).toEqual({ kind: "select", value: "France" });
    expect(formAction("textbox", 42)).toEqual({ kind: "fill", value: "42" });
    expect(chordsOf("ctrl+a Backspace Return")).toEqual([["Control", "a"], ["Backspace"], ["Enter"]]);
  });
});
