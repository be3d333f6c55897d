// The one place where the wire is declared; imported by the server and the web UI alike.
export * from "./actions.ts";
export * from "./entities.ts";
export * from "./events.ts";
export * from "./api.ts";
export * from "./extension.ts";
export * from "./providers.ts";
export * from "./money.ts";
