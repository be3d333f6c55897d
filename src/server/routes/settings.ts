// The model settings a person sets in the app: GET /api/settings/model (never the key itself),
// POST /api/settings/model/test (the readiness check of GET /api/model-status, on the proposed
// settings, nothing saved) and PUT /api/settings/model, which saves them for the next task and answer.
import { Hono } from "hono";
import { modelSettingsBodySchema, type ModelSettings, type ModelSettingsReply, type ModelStatusReply } from "../../protocol/index.ts";
import { parseBody } from "../http-error.ts";

/** What the routes need of the system: the settings as the page may see them, a check and a save. */
export interface ModelSettingsControl {
  view(): ModelSettingsReply;
  /** Whether a model with these settings could be asked; throws INVALID_BODY when the configuration's schema refuses them. */
  test(settings: ModelSettings): Promise<ModelStatusReply>;
  save(settings: ModelSettings): Promise<ModelSettingsReply>;
}

export function settingsRoutes(settings: ModelSettingsControl) {
  return new Hono()
    .get("/settings/model", (c) => c.json<ModelSettingsReply>(settings.view()))
    .post("/settings/model/test", async (c) => c.json<ModelStatusReply>(await settings.test(await parseBody(c, modelSettingsBodySchema))))
    .put("/settings/model", async (c) => c.json<ModelSettingsReply>(await settings.save(await parseBody(c, modelSettingsBodySchema))));
}
