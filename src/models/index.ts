// Builds the configured planner for a task. Each provider's adapter only translates between its
// wire protocol and PlannerTurn; the loop, checks and limits are shared.
import type { Config } from "../core/config.ts";
import { AnthropicComputerUse } from "./anthropic/computer-use.ts";
import { OpenAIComputerUse } from "./openai/computer-use.ts";
import { JsonPlanner } from "./json-planner/json-planner.ts";
import type { Planner } from "./planner.ts";

export function createPlanner(config: Config): Planner {
  const { model } = config;
  const policy = { timeoutMs: model.timeoutMs, retries: model.httpRetries, backoffMs: model.backoffMs };
  switch (model.provider) {
    case "qwen":
      return new JsonPlanner({
        baseUrl: model.baseUrl,
        apiKey: model.apiKey,
        policy,
        model: model.name,
        jsonMode: model.jsonMode,
        repairRetries: model.repairRetries,
        verifyClicks: model.verifyClicks,
      });
    case "openai":
      return new OpenAIComputerUse({ endpoint: { baseUrl: model.baseUrl, apiKey: model.apiKey, policy }, model: model.name });
    case "anthropic":
      return new AnthropicComputerUse({
        endpoint: { baseUrl: model.baseUrl, apiKey: model.apiKey, policy },
        model: model.name,
        maxTokens: model.maxTokens,
      });
  }
}
