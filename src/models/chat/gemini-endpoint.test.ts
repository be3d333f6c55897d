// Which Gemini model the chat assistant talks to: the planner's own when it also chats, a Gemini
// chat model on the same key when the planner is the dedicated computer-use model.
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../core/load-config.ts";
import { chatEndpoint } from "./index.ts";

describe("the chat assistant beside a Gemini planner", () => {
  it("takes gemini-3.5-flash on the same key and endpoint when the planner is the computer-use model", () => {
    expect(chatEndpoint(loadConfig({ MODEL_PROVIDER: "gemini", MODEL_NAME: "gemini-2.5-computer-use-preview-10-2025", GEMINI_API_KEY: "gk" }))).toEqual({
      provider: "gemini",
      name: "gemini-3.5-flash",
      baseUrl: "https://generativelanguage.googleapis.com/v1beta",
      apiKey: "gk",
    });
  });

  it("chats with the planner's model when it is a Flash or Pro model, and follows CHAT_PROVIDER=gemini", () => {
    expect(chatEndpoint(loadConfig({ MODEL_PROVIDER: "gemini", MODEL_NAME: "gemini-3.5-flash", GEMINI_API_KEY: "gk" }))).toMatchObject({ provider: "gemini", name: "gemini-3.5-flash" });
    expect(chatEndpoint(loadConfig({ CHAT_PROVIDER: "gemini", GEMINI_API_KEY: "gk", GEMINI_BASE_URL: "http://127.0.0.1:8080/v1beta" }))).toEqual({
      provider: "gemini",
      name: "gemini-3.5-flash",
      baseUrl: "http://127.0.0.1:8080/v1beta",
      apiKey: "gk",
    });
  });
});
