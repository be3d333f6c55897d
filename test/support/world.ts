// The world a test file runs in: a scripted model, the fixture pages and (unless a file starts
// its own) the product itself, started before the file's tests and stopped after them.
import { afterAll, beforeAll } from "vitest";
import type { ConfigInput, DeepPartial } from "../../src/core/config.ts";
import { startApp, type TestApp } from "./app.ts";
import { startFixtureServer, type FixtureServer } from "./fixture-server.ts";
import { startScriptedModel, type ScriptedModel } from "./scripted-model.ts";

export interface World {
  model: ScriptedModel;
  pages: FixtureServer;
  /** Only when the world was asked to start the app. */
  app: TestApp;
}

/**
 * Call at the top of a test file. The parts exist only once `beforeAll` ran, so what is returned
 * stands in for them and reaches the real ones when a test uses them.
 */
export function useWorld(options: { app?: boolean; config?: DeepPartial<ConfigInput> } = {}): World {
  const world = {} as World;
  beforeAll(async () => {
    [world.model, world.pages] = await Promise.all([startScriptedModel(), startFixtureServer()]);
    if (options.app !== false) world.app = await startApp({ modelBaseUrl: world.model.baseUrl, config: options.config });
  });
  afterAll(async () => {
    await world.app?.close();
    await Promise.all([world.model?.close(), world.pages?.close()]);
  });
  return { model: late(() => world.model), pages: late(() => world.pages), app: late(() => world.app) };
}

/** Stands in for a part that exists only once `beforeAll` ran, and reaches it when a test uses it. */
export function late<T extends object>(get: () => T): T {
  return new Proxy({} as T, {
    get(_, key) {
      const target = get();
      const value: unknown = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
