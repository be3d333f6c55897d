// Keeps secrets out of what a task or an answer records and shows: the configured keys, anywhere
// in a text (a model's error body may echo the key it was sent), the user and password of any URL
// (a base URL written with credentials), and a task secret's value, put back as its `%name%`.
import type { Config } from "./config.ts";
import { mapStrings, Secrets } from "./secrets.ts";

const MASK = "[redacted]";
/** Shorter values are too common to mask as text without mangling it. */
const MIN_SECRET = 8;

/** Every key the configuration holds, and the values of the task secrets. */
export function secretsOf(config: Config): string[] {
  const keys = [config.model.apiKey, config.chat.apiKey, config.agent.searchApiKey, config.s3.secretAccessKey, ...Object.values(config.providers).map((p) => p?.apiKey), ...Object.values(config.secrets)];
  return [...new Set(keys.filter((k): k is string => typeof k === "string" && k.length >= MIN_SECRET))];
}

export function redact(text: string, secrets: readonly string[]): string {
  let out = text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi, `$1${MASK}@`);
  for (const secret of secrets) out = out.split(secret).join(MASK);
  return out;
}

/** Makes a value (an event, a step, a task) safe to store or send: every string in it, at any depth. */
export type Redactor = <T>(value: T) => T;

/**
 * The redaction every record and event goes through before it is stored or sent: a task secret's
 * value becomes its placeholder (a page that echoes it into its address or title is shown as the
 * step is), and the configured keys and a URL's credentials are masked. `alsoKeys`: keys no
 * longer configured that a task begun before a change may still echo.
 */
export function redactor(config: Config, alsoKeys: readonly string[] = []): Redactor {
  const secrets = new Secrets(config.secrets);
  const keys = [...new Set([...secretsOf(config), ...alsoKeys])];
  return (value) => mapStrings(value, (text) => redact(secrets.conceal(text), keys));
}
