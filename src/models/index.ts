// Builds the configured planner. Providers beyond the JSON planner arrive with the model-adapter
// issue; each one only translates between its wire protocol and PlannerTurn.
import type { Config } from "../core/config.ts";
import { JsonPlanner } from "./json-planner/json-planner.ts";
import type { Planner } from "./planner.ts";

export function createPlanner(config: Config): Planner {
  const { model } = config;
  switch (model.provider) {
    case "qwen":
      return new JsonPlanner({
        baseUrl: model.baseUrl,
        apiKey: model.apiKey,
        policy: { timeoutMs: model.timeoutMs, retries: model.httpRetries, backoffMs: model.backoffMs },
        model: model.name,
        jsonMode: model.jsonMode,
        repairRetries: model.repairRetries,
        verifyClicks: model.verifyClicks,
      });
  }
}
