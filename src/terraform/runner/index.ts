// The terraform runner: one module per subcommand behind one TerraformCli interface.
export * from "./cli.js";
export * from "./errors.js";
export * from "./version.js";
export * from "./state-list.js";
export * from "./state-rm.js";
export * from "./state-pull.js";
export * from "./import.js";
export * from "./plan.js";
