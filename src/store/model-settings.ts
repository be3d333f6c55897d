// The model a person set in the app, kept in the data dir as model-settings.json: readable by its
// owner only, like the install token, since it may hold an API key. Read at start over the
// environment's settings; replaced whole, through a temporary file, so a crash never leaves half of it.
import { chmod, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import type { Config } from "../core/config.ts";
import { AppError } from "../core/errors.ts";
import type { LiveConfig } from "../core/live-config.ts";
import { modelSettingsView, savedFrom, savedModelSettingsSchema, withModelSettings, type SavedModelSettings } from "../core/model-settings.ts";
import type { ModelSettings, ModelSettingsReply, ModelStatusReply } from "../protocol/index.ts";

export const MODEL_SETTINGS_FILE = "model-settings.json";

/** The saved settings, or null when the person has set none. */
export async function readModelSettings(dataDir: string): Promise<SavedModelSettings | null> {
  const file = path.join(dataDir, MODEL_SETTINGS_FILE);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = savedModelSettingsSchema.safeParse(json);
  if (!parsed.success) throw new AppError("STORAGE_FAILED", `${file} does not hold model settings; fix it, or delete it to use the environment's, and start again.`);
  return parsed.data;
}

/** What the settings routes do: show the settings without the key, check proposed ones, save them for the next task. */
export class ModelSettingsFile {
  /** Saves one after the other: each builds on the one before (an absent key keeps the saved one). */
  #saving: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly live: LiveConfig,
    private readonly readiness: (config: Config) => Promise<ModelStatusReply>,
    private readonly log: Logger,
  ) {}

  view(): ModelSettingsReply {
    return modelSettingsView(this.live.base, this.live.saved);
  }

  test(settings: ModelSettings): Promise<ModelStatusReply> {
    return this.readiness(withModelSettings(this.live.base, savedFrom(settings, this.live.saved)));
  }

  save(settings: ModelSettings): Promise<ModelSettingsReply> {
    const saved = this.#saving.then(() => this.write(settings));
    this.#saving = saved.catch(() => undefined);
    return saved;
  }

  private async write(settings: ModelSettings): Promise<ModelSettingsReply> {
    const next = savedFrom(settings, this.live.saved);
    // Checked before it is written: a file the schema refuses would stop the next start.
    withModelSettings(this.live.base, next);
    const file = path.join(this.live.base.dataDir, MODEL_SETTINGS_FILE);
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
    // The mode given to writeFile applies only to a file it creates: one left by a crash keeps its own.
    await chmod(temporary, 0o600);
    await rename(temporary, file);
    this.live.useModel(next);
    this.log.info({ provider: next.provider, model: this.live.current.model.name }, "the model settings were changed in the app");
    return this.view();
  }
}
