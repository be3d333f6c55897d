// The model a person set in the app, kept in the data dir as model-settings.json: readable by its
// owner only, like the install token, since it may hold an API key. Read at start over the
// environment's settings; replaced whole, through a temporary file, so a crash never leaves half of it.
import { chmod, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { AppError } from "../core/errors.ts";
import { savedModelSettingsSchema, type SavedModelSettings } from "../core/model-settings.ts";

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

/** Saves the settings, readable by the data dir's owner only. */
export async function writeModelSettings(dataDir: string, saved: SavedModelSettings): Promise<void> {
  const file = path.join(dataDir, MODEL_SETTINGS_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(saved, null, 2)}\n`, { mode: 0o600 });
  // The mode given to writeFile applies only to a file it creates: one left by a crash keeps its own.
  await chmod(temporary, 0o600);
  await rename(temporary, file);
}
