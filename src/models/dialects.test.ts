import { describe, expect, it } from "vitest";
import { speechOf, uitarsGrid } from "./dialects.ts";

const of = (name: string, overrides = {}) => {
  const speech = speechOf(name, overrides);
  return [speech.dialect, speech.grid.name];
};

describe("what a model's name implies", () => {
  it.each([
    ["qwen3-vl-235b-a22b-instruct", ["qwen3-vl", "norm1000"]],
    ["qwen3-vl-plus", ["qwen3-vl", "norm1000"]],
    ["Qwen/Qwen3-VL-8B-Instruct", ["qwen3-vl", "norm1000"]],
    ["qwen3vl:30b", ["qwen3-vl", "norm1000"]],
    ["qwen2.5-vl-72b-instruct", ["json", "smart_resize"]],
    ["Qwen/Qwen2.5-VL-7B-Instruct", ["json", "smart_resize"]],
    ["glm-4.5v", ["glm-4.5v", "norm999"]],
    ["zai-org/GLM-4.5V-FP8", ["glm-4.5v", "norm999"]],
    ["gpt-4o", ["json", "pixels"]],
    ["scripted-vl", ["json", "pixels"]],
  ])("%s speaks %o", (name, expected) => {
    expect(of(name)).toEqual(expected);
  });

  it("gives way to MODEL_DIALECT and MODEL_GRID", () => {
    expect(of("my-finetune", { dialect: "qwen3-vl" })).toEqual(["qwen3-vl", "pixels"]);
    expect(of("qwen3-vl-plus", { grid: "norm999" })).toEqual(["qwen3-vl", "norm999"]);
    expect(of("qwen3-vl-plus", { dialect: "json" })).toEqual(["json", "norm1000"]);
  });

  it("gives UI-TARS 1.0 and Doubao 0–1000, and 1.5 its resized image's pixels", () => {
    expect(uitarsGrid("1.0").name).toBe("norm1000");
    expect(uitarsGrid("doubao-1.5-20B").name).toBe("norm1000");
    expect(uitarsGrid("1.5").extent({ width: 1280, height: 800 })).toEqual({ width: 1288, height: 812 });
    expect(uitarsGrid("1.5", "pixels").name).toBe("pixels");
  });
});
