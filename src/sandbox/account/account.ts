// The simulated Cloudflare account the provider double acts on: one JSON file (account.json) in the
// directory named by CF_DOUBLE_ACCOUNT_DIR, outside the provider mirror. Every RPC reads it afresh and
// every change is written back atomically, so successive Terraform processes (one per phase) and a test
// that inspects or edits the file between commands all see one consistent account.

import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomicSync } from "../fs-sync.js";

export const ACCOUNT_DIR_ENV = "CF_DOUBLE_ACCOUNT_DIR";
export const ACCOUNT_FILE = "account.json";

export type Obj = Record<string, unknown>;

export interface WafPackage {
  id: string;
  name: string;
  description?: string;
  detection_mode: "anomaly" | "traditional";
  sensitivity: string;
  action_mode: string;
  /** What the setting returns to when the Terraform resource is destroyed. */
  default_sensitivity: string;
  default_action_mode: string;
}

export interface WafGroup {
  id: string;
  package_id: string;
  name: string;
  description?: string;
  mode: "on" | "off";
  default_mode: "on" | "off";
  rules_count?: number;
  modified_rules_count?: number;
}

export interface WafRule {
  id: string;
  package_id: string;
  group_id: string;
  description?: string;
  priority?: string;
  mode: string;
  default_mode: string;
  allowed_modes: string[];
}

export interface Zone {
  id: string;
  name: string;
  plan: "free" | "pro" | "business" | "enterprise";
  status?: string;
  type?: string;
  paused?: boolean;
  /** The WAF migration has run: the previous managed-rules API answers errors from now on. */
  migrated?: boolean;
  /** Where the waf_migration flow stands (spec 3): absent = "start"; "validation" (Enterprise, both WAFs on); "finished". */
  migration_state?: "validation" | "finished";
  /** Zone settings by API id (waf, security_level, ...). */
  settings?: Obj;
  /** The settings as they were before a cloudflare_zone_settings_override took over (restored on destroy). */
  settingsBeforeOverride?: Obj;
  waf?: { packages?: WafPackage[]; groups?: WafGroup[]; rules?: WafRule[]; overrides?: Record<string, Obj> };
  /** Rulesets by id, in the API's shape (action_parameters and overrides are objects). */
  rulesets?: Record<string, Obj>;
  /** Objects of the other resource types (filters, firewall rules, page rules, ...) by type, then id. */
  objects?: Record<string, Record<string, Obj>>;
  /** The last Terraform view of the zone resource itself (computed extras such as name_servers). */
  resource?: Obj;
}

export interface Account {
  zones: Record<string, Zone>;
}

export function accountDir(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env[ACCOUNT_DIR_ENV];
  if (!dir) throw new Error(`${ACCOUNT_DIR_ENV} is not set: the provider double needs the directory of its simulated account`);
  return dir;
}

export function readAccount(dir: string): Account {
  const file = join(dir, ACCOUNT_FILE);
  if (!existsSync(file)) return { zones: {} };
  const parsed = JSON.parse(readFileSync(file, "utf8")) as Partial<Account>;
  return { zones: parsed.zones ?? {} };
}

export function writeAccount(dir: string, account: Account): void {
  mkdirSync(dir, { recursive: true });
  writeFileAtomicSync(join(dir, ACCOUNT_FILE), JSON.stringify(account, null, 2) + "\n");
}

/** A fresh 32-hex identifier, the form Cloudflare uses for zones, rulesets and rules. */
export function newId(): string {
  let out = "";
  for (let i = 0; i < 32; i++) out += Math.floor(Math.random() * 16).toString(16);
  return out;
}

/** The error the retired previous-WAF API gives once a zone is migrated (the real body is not published). */
export class RetiredApiError extends Error {
  constructor(zoneId: string, what: string) {
    super(
      `error reading ${what}: HTTP status 403: the previous managed rules API is no longer available for zone ${zoneId}: ` +
        `the zone has been migrated to the new WAF (managed rulesets)`,
    );
  }
}

export class NotFoundError extends Error {}
