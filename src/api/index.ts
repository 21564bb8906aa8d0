// Public surface of the API layer.
export * from "./auth.js";
export * from "./client.js";
export * from "./endpoints.js";
export * from "./errors.js";
export * from "./poll.js";
export * from "./redact.js";
export * from "./retry.js";
export * from "./types.js";
