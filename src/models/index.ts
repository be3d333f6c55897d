// Builds the planner for a task: the chosen provider (the configured one, or the task's own
// choice), followed by the configured fallbacks behind a router. Each provider's adapter only
// translates between its wire protocol and PlannerTurn; the loop, checks and limits are shared.
import type { Logger } from "pino";
import { providerDefaults, type Config } from "../core/config.ts";
import type { ModelChoice } from "../protocol/index.ts";
import { speechOf, uitarsGrid } from "./dialects.ts";
import { AnthropicComputerUse } from "./anthropic/computer-use.ts";
import { GeminiComputerUse } from "./gemini/computer-use.ts";
import { GlmPlanner } from "./glm45v/glm45v.ts";
import { JsonPlanner } from "./json-planner/json-planner.ts";
import { OpenAIComputerUse } from "./openai/computer-use.ts";
import { coordinatesOf, OpenCUAPlanner } from "./opencua/opencua.ts";
import type { Planner } from "./planner.ts";
import { Qwen3VLPlanner } from "./qwen3vl/qwen3vl.ts";
import { Router } from "./router.ts";
import { SomPlanner } from "./som/som-planner.ts";
import { UITarsPlanner } from "./uitars/uitars.ts";

export function createPlanner(config: Config, choice?: ModelChoice, log?: Logger): Planner {
  const primary = choice ?? { provider: config.model.provider };
  const chain = [primary, ...config.model.fallback.filter((p) => p !== primary.provider).map((provider) => ({ provider }))];
  const planners = chain.map((c) => single(config, c));
  return planners.length === 1 ? planners[0]! : new Router(planners, log);
}

function single(config: Config, choice: ModelChoice): Planner {
  const { model } = config;
  const configured = choice.provider === model.provider ? { name: model.name, baseUrl: model.baseUrl, apiKey: model.apiKey } : config.providers[choice.provider];
  const name = choice.name ?? configured.name ?? providerDefaults(choice.provider).name;
  const baseUrl = configured.baseUrl ?? providerDefaults(choice.provider).baseUrl;
  const apiKey = configured.apiKey;
  const policy = { timeoutMs: model.timeoutMs, retries: model.httpRetries, backoffMs: model.backoffMs };
  switch (choice.provider) {
    case "qwen": {
      const speech = speechOf(name, { dialect: model.dialect, grid: model.grid });
      const endpoint = { baseUrl, apiKey, policy, model: name, repairRetries: model.repairRetries, verifyClicks: model.verifyClicks, grid: speech.grid };
      switch (speech.dialect) {
        case "qwen3-vl":
          return new Qwen3VLPlanner(endpoint);
        case "glm-4.5v":
          return new GlmPlanner(endpoint);
        case "json":
          return new JsonPlanner({ ...endpoint, jsonMode: model.jsonMode });
      }
    }
    case "openai":
      return new OpenAIComputerUse({ endpoint: { baseUrl, apiKey, policy }, model: name });
    case "gemini":
      return new GeminiComputerUse({ endpoint: { baseUrl, apiKey, policy }, model: name });
    case "uitars":
      return new UITarsPlanner({ baseUrl, apiKey, policy, model: name, repairRetries: model.repairRetries, version: model.uitarsVersion, grid: uitarsGrid(model.uitarsVersion, model.grid) });
    case "opencua":
      return new OpenCUAPlanner({ baseUrl, apiKey, policy, model: name, repairRetries: model.repairRetries, coordinates: coordinatesOf(model.coordinates, model.grid) });
    case "som":
      return new SomPlanner({ baseUrl, apiKey, policy, model: name, jsonMode: model.jsonMode, repairRetries: model.repairRetries, jpegQuality: config.browser.jpegQuality });
    case "anthropic":
      return new AnthropicComputerUse({ endpoint: { baseUrl, apiKey, policy }, model: name, maxTokens: model.maxTokens });
  }
}
