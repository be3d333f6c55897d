// The model a person sets in the app (provider, model name, address, key) and how it combines with
// the configuration read from the environment: what the person set wins, field by field; what they
// left empty comes from the environment for that provider, else from the provider's default. The
// combined model part goes through the configuration's own schema, so it is checked as MODEL_* are.
import { z } from "zod";
import { redactUrl } from "./cdp-endpoints.ts";
import { configSchema, providerDefaults, PROVIDERS, type Config, type Provider } from "./config.ts";
import { AppError } from "./errors.ts";
import type { ModelSettings, ModelSettingsReply, SettingSource } from "../protocol/index.ts";

/** The settings file's content: only what the person set. */
export const savedModelSettingsSchema = z.strictObject({
  provider: z.enum(PROVIDERS),
  name: z.string().min(1).optional(),
  baseUrl: z.string().min(1).optional(),
  apiKey: z.string().min(1).optional(),
});
export type SavedModelSettings = z.infer<typeof savedModelSettingsSchema>;

/** A key shorter than this shows none of its characters. */
const MIN_KEY_FOR_HINT = 16;

/** The environment's model, name, address and key for `provider`: MODEL_* when it is the configured provider, else its own variables (OPENAI_*…). */
function fromEnvironment(base: Config, provider: Provider): { name?: string | undefined; baseUrl?: string | undefined; apiKey: string } {
  if (provider === base.model.provider) return { name: base.model.name, baseUrl: base.model.baseUrl, apiKey: base.model.apiKey };
  const own = base.providers[provider];
  return { name: own.name, baseUrl: own.baseUrl, apiKey: own.apiKey };
}

/** The configuration with the person's model over the environment's; a model part the schema refuses is an INVALID_BODY naming the field. */
export function withModelSettings(base: Config, saved: SavedModelSettings | null): Config {
  if (!saved) return base;
  const env = fromEnvironment(base, saved.provider);
  const parsed = configSchema.shape.model.safeParse({
    ...base.model,
    provider: saved.provider,
    name: saved.name ?? env.name,
    baseUrl: saved.baseUrl ?? env.baseUrl,
    apiKey: saved.apiKey ?? env.apiKey,
  });
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "model"}: ${i.message}`).join("; ");
    throw new AppError("INVALID_BODY", `The model settings are not valid: ${issues}`);
  }
  return { ...base, model: parsed.data };
}

/**
 * What a PUT body saves: empty fields are left to the environment; an absent key keeps the one
 * saved before for the same provider (the page never has it to send back), and so does the saved
 * address sent back as the page was shown it, without its user, password or query.
 */
export function savedFrom(body: ModelSettings, before: SavedModelSettings | null): SavedModelSettings {
  const keptKey = before?.provider === body.provider ? before.apiKey : undefined;
  const apiKey = body.api_key === undefined ? keptKey : body.api_key || undefined;
  const baseUrl = before?.baseUrl !== undefined && body.base_url === redactUrl(before.baseUrl) ? before.baseUrl : body.base_url;
  return {
    provider: body.provider,
    ...(body.model ? { name: body.model } : {}),
    ...(baseUrl ? { baseUrl } : {}),
    ...(apiKey ? { apiKey } : {}),
  };
}

/**
 * The settings as the page may see them: the key never, only whether there is one and, when long
 * enough, its last 4 characters; the address without the user, password or query some proxies carry keys in.
 */
export function modelSettingsView(base: Config, saved: SavedModelSettings | null): ModelSettingsReply {
  const { model } = withModelSettings(base, saved);
  const env = fromEnvironment(base, model.provider);
  const defaults = providerDefaults(model.provider);
  const source = (set: unknown, fromEnv: boolean): SettingSource => (set !== undefined ? "app" : fromEnv ? "env" : "default");
  return {
    provider: model.provider,
    model: model.name,
    base_url: redactUrl(model.baseUrl),
    key: { set: model.apiKey !== "", last4: model.apiKey.length >= MIN_KEY_FOR_HINT ? model.apiKey.slice(-4) : null },
    from: {
      // The environment's provider is told from the default only when it differs from it.
      provider: source(saved?.provider, base.model.provider !== configSchema.shape.model.parse({}).provider),
      model: source(saved?.name, env.name !== undefined && env.name !== defaults.name),
      base_url: source(saved?.baseUrl, env.baseUrl !== undefined && env.baseUrl !== defaults.baseUrl),
      key: source(saved?.apiKey, env.apiKey !== ""),
    },
    defaults: Object.fromEntries(PROVIDERS.map((p) => [p, { model: providerDefaults(p).name, base_url: providerDefaults(p).baseUrl }])) as ModelSettingsReply["defaults"],
    env_keys: PROVIDERS.filter((p) => fromEnvironment(base, p).apiKey !== ""),
  };
}
