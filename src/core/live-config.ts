// The configuration as it stands now. It is read once at start like any setting, except that its
// model part can be replaced while the server runs, when the person saves a model in the app
// (core/model-settings.ts). This is the one place that changes: a task or an answer reads
// `current` as it starts and keeps that snapshot, so a change applies from the next one, never midway.
import type { Config } from "./config.ts";
import { withModelSettings, type SavedModelSettings } from "./model-settings.ts";

export class LiveConfig {
  #current: Config;
  #saved: SavedModelSettings | null;

  /** `base`: the configuration of the environment and command line; `saved`: the person's model over it. */
  constructor(
    readonly base: Config,
    saved: SavedModelSettings | null = null,
  ) {
    this.#saved = saved;
    this.#current = withModelSettings(base, saved);
  }

  get current(): Config {
    return this.#current;
  }

  /** What the person set in the app, or null. */
  get saved(): SavedModelSettings | null {
    return this.#saved;
  }

  /** Puts the person's model over the base; throws INVALID_BODY, changing nothing, when the schema refuses it. */
  useModel(saved: SavedModelSettings | null): void {
    this.#current = withModelSettings(this.base, saved);
    this.#saved = saved;
  }

  /**
   * A value made from the configuration (a chat model, a redactor), made again only once the
   * configuration has changed.
   *
   * @example const chatModel = live.derive(createChatModel); chatModel().stream(…)
   */
  derive<T>(make: (config: Config) => T): () => T {
    let made: { of: Config; value: T } | null = null;
    return () => {
      if (made?.of !== this.#current) made = { of: this.#current, value: make(this.#current) };
      return made.value;
    };
  }
}
