// The sandbox's library surface: the provider double (tests), the simulated API, and the sandbox command.
export { buildMirror, packageHash, servedVersions, wrapperScript, PROVIDER_SOURCE, type MirrorLayout } from "./mirror.js";
export { ACCOUNT_DIR_ENV, ACCOUNT_FILE, readAccount, writeAccount, type Account, type Zone, type WafPackage, type WafGroup, type WafRule } from "./account/account.js";
export { startApiServer, API_BASE_PATH, type ApiServer, type ApiServerOptions, type ApiCredentials } from "./api/server.js";
export { equivalentConfig, migrationStatus, migrationState } from "./api/migration.js";
export { sandboxUp, sandboxDown, exportLines, SANDBOX_FILES, type SandboxEnv, type SandboxUp } from "./sandbox.js";
export { ProviderHost } from "./reattach.js";
export { sampleAccount, SAMPLE_ZONES } from "./sample-account.js";
