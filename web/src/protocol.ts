// The UI's one door to the wire protocol: everything it knows about events, entities and API
// bodies comes from src/protocol, through here.
export * from "../../src/protocol/index.ts";
