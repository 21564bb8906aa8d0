// What each finding code means, for the renderers that describe their rules (SARIF reportingDescriptors,
// JUnit check names). The codes and their severities are core's (FINDING_CODES); this file only names and
// explains them, and groups them into the checks a CI report lists.
import { FINDING_CODES } from "../core/findings.js";
import type { Severity } from "../core/model.js";

export const TOOL_INFORMATION_URI = "https://github.com/cf-waf-migrate/cf-waf-migrate";
/** The README section that lists every finding code (a stable anchor). */
export const FINDING_CODES_HELP_URI = `${TOOL_INFORMATION_URI}#finding-codes`;
/** The README section on exit codes and unreadable input. */
export const INPUT_ERROR_HELP_URI = `${TOOL_INFORMATION_URI}#exit-codes`;

/** The pseudo-code of input that could not be read or parsed (report.errors); not a finding code. */
export const INPUT_ERROR = "INPUT_ERROR";

export interface RuleDoc {
  short: string;
  full: string;
  /** The check (JUnit test case) the code belongs to. */
  check: string;
}

// JUnit checks every zone always lists, whether or not they found anything.
export const CHECK_COMPATIBILITY = "compatibility (URI overrides)";
export const CHECK_FIREWALL_LIMIT = "firewall rule limit";
export const CHECK_EXPRESSION_LENGTH = "expression length";
export const CHECK_PROVIDER_UPGRADE = "provider upgrade";
export const ZONE_CHECKS = [CHECK_COMPATIBILITY, CHECK_FIREWALL_LIMIT, CHECK_EXPRESSION_LENGTH, CHECK_PROVIDER_UPGRADE] as const;

const DOCS: Record<keyof typeof FINDING_CODES, RuleDoc> = {
  LEGACY_WAF_RESOURCE: {
    short: "A previous-WAF resource (cloudflare_waf_package, _group, _rule or _override) is managed by Terraform.",
    full: "The resource belongs to the previous managed WAF, which only provider versions up to 3.35 know. Move the zone to one cloudflare_ruleset in phase http_request_firewall_managed, import it, and remove the legacy resource from state before deleting its block: destroying it would reset the live WAF to defaults.",
    check: "legacy WAF resources",
  },
  URI_WAF_OVERRIDE: {
    short: "A URI-based WAF override (cloudflare_waf_override) blocks the zone's migration.",
    full: "A zone with a URI-based WAF override cannot migrate to the new WAF. Delete the override (remove its block and apply) and recreate its behaviour as rules in the new managed ruleset.",
    check: CHECK_COMPATIBILITY,
  },
  FIREWALL_RULE_BYPASS_WAF: {
    short: "A firewall rule bypasses the WAF; it becomes a skip rule in the new ruleset.",
    full: "Firewall rules with action bypass and the waf product do not affect the new WAF. The generated ruleset carries an equivalent skip rule (action skip, ruleset current, logging on) placed before the execute rules.",
    check: "firewall rules bypassing the WAF",
  },
  FIREWALL_RULES_OVER_LIMIT: {
    short: "More than 200 firewall rules bypass the WAF in one zone.",
    full: "Zones with more than 200 WAF-bypassing firewall rules cannot be migrated by their owner; Cloudflare Support must migrate them.",
    check: CHECK_FIREWALL_LIMIT,
  },
  FIREWALL_EXPRESSION_TOO_LONG: {
    short: "A WAF-bypassing firewall rule's filter expression is longer than 4 KB.",
    full: "The migration cannot carry a filter expression longer than 4096 bytes into a skip rule. Shorten the expression (for example with lists) before migrating.",
    check: CHECK_EXPRESSION_LENGTH,
  },
  PAGE_RULE_DISABLE_SECURITY: {
    short: "A Page Rule sets Disable Security; it becomes a skip rule in the new ruleset.",
    full: "Disable Security in a Page Rule does not affect the new WAF. The generated ruleset carries a skip rule whose expression matches the Page Rule's URL pattern component by component.",
    check: "page rules",
  },
  PAGE_RULE_WAF_SETTING: {
    short: "A Page Rule sets WAF On or Off, which does not affect the new WAF.",
    full: "WAF Off in a Page Rule does not disable the new WAF; only skip rules do. The generated ruleset carries a skip rule for WAF Off; review the Page Rule and remove the setting once migrated.",
    check: "page rules",
  },
  CRS_OVERRIDE_NOT_MIGRATED: {
    short: "A legacy core rule set (OWASP) group or rule override is not migrated.",
    full: "Overrides of individual legacy OWASP groups or rules have no counterpart that can be derived offline. Recreate them as tag or rule overrides of the Cloudflare OWASP Core Ruleset.",
    check: "managed rule overrides",
  },
  MANAGED_OVERRIDE_UNMAPPED: {
    short: "A legacy Cloudflare-managed group or rule mode has no offline mapping.",
    full: "Legacy Cloudflare Managed Ruleset group and rule ids do not map to the new managed ruleset offline. Pass --config-json with the service's waf_migration configuration for an exact ruleset.",
    check: "managed rule overrides",
  },
  VALIDATION_MODE_UNAVAILABLE: {
    short: "The zone is not on Enterprise: only the pending migration path exists.",
    full: "Validation mode (both WAFs side by side) is available to Enterprise zones only; other zones migrate in pending mode.",
    check: "migration mode",
  },
  RULESET_ID_UNKNOWN: {
    short: "The id of the zone's http_request_firewall_managed entry point ruleset is not known yet.",
    full: "The import id uses the placeholder <RULESET_ID>. After migrating, read the entry point ruleset (cf-waf-migrate api entrypoint --zone ZONE_ID) and pass --ruleset-id ZONE_ID=RULESET_ID.",
    check: "ruleset id",
  },
  PROVIDER_UPGRADE_BLOCKED: {
    short: "Legacy WAF resources remain while the provider constraint allows 4.0 or later.",
    full: "Provider 4.0 removed the previous-WAF resources. Migrate and remove them from state and config before allowing provider 4.0 or later (3.35.0 was the last 3.x release).",
    check: CHECK_PROVIDER_UPGRADE,
  },
  STATE_CONFIG_DRIFT: {
    short: "A legacy WAF resource (or one instance of it) is in state but not in config, or the reverse.",
    full: "Terraform would create or destroy the legacy resource on the next apply, which resets live WAF settings. Remove it from state (or from config) instead of applying.",
    check: "state and config drift",
  },
  CERT_UNIVERSAL_AUTO_SWITCH: {
    short: "Universal certificates switch to a more compatible CA automatically.",
    full: "Cloudflare switches Universal certificates away from Let's Encrypt automatically; nothing to do.",
    check: "certificates",
  },
  CERT_ADVANCED_LETS_ENCRYPT: {
    short: "An advanced certificate pack uses Let's Encrypt and is not changed automatically.",
    full: "cloudflare_certificate_pack with certificate_authority = lets_encrypt is not switched automatically; choose another certificate authority.",
    check: "certificates",
  },
  CERT_TOTAL_TLS_LETS_ENCRYPT: {
    short: "Total TLS uses Let's Encrypt and is never changed automatically.",
    full: "cloudflare_total_tls with certificate_authority = lets_encrypt is never switched automatically; choose another certificate authority.",
    check: "certificates",
  },
  CERT_CUSTOM_HOSTNAME_LETS_ENCRYPT: {
    short: "A custom hostname's certificate uses Let's Encrypt.",
    full: "cloudflare_custom_hostname whose ssl block uses lets_encrypt must switch to another certificate authority before 2024-09-09.",
    check: "certificates",
  },
  CERT_CUSTOM_CROSS_SIGNED_UNTIL_EXPIRY: {
    short: "An uploaded Let's Encrypt certificate stays cross-signed until it expires.",
    full: "Uploaded before 2024-09-09 with compatible or modern bundling: the cross-signed chain is served until the certificate expires.",
    check: "certificates",
  },
  CERT_CUSTOM_REBUNDLED_SELF_SIGNED: {
    short: "An uploaded Let's Encrypt certificate is bundled with the self-signed root.",
    full: "Uploaded on or after 2024-09-09 with compatible or modern bundling: the certificate is bundled with the self-signed ISRG Root X1.",
    check: "certificates",
  },
  CERT_CUSTOM_USER_DEFINED_CHAIN: {
    short: "An uploaded Let's Encrypt certificate uses a user-defined chain.",
    full: "With user-defined (force) bundling the uploaded chain is served as is: do not upload a chain that relies on the DST Root CA X3 cross-sign, which expired on 2024-09-30.",
    check: "certificates",
  },
  REMOTE_MODULE_NOT_FOLLOWED: {
    short: "A module from a remote source is not scanned.",
    full: "Only local module sources are followed; legacy WAF resources inside a remote module are seen through state only.",
    check: "modules",
  },
  RULESET_INVALID_ACTION: {
    short: "An existing http_request_firewall_managed ruleset uses an action the phase does not accept.",
    full: "A rule of the existing managed-phase ruleset uses an action that phase does not accept; fix the existing ruleset before migrating.",
    check: "existing rulesets",
  },
  MANAGED_RULESET_EXISTS: {
    short: "The zone already has an http_request_firewall_managed ruleset in Terraform.",
    full: "Merge the generated rules into the existing ruleset instead of adding a second one for the same phase.",
    check: "existing rulesets",
  },
  LEGACY_WAF_DATA_SOURCE: {
    short: "A previous-WAF data source (data.cloudflare_waf_*) is used.",
    full: "The legacy WAF data sources were removed in provider 4.0 and their API was retired; delete them together with the legacy resources.",
    check: "legacy WAF resources",
  },
  VALUE_UNRESOLVED: {
    short: "A value the migration needs is not known offline (a variable nobody sets, a data source, instance keys only state names).",
    full: "The value is reported, never defaulted: the generated ruleset has a TODO in its place, and a firewall rule or Page Rule that may bypass the WAF becomes a disabled skip rule. Supply it with --var-file FILE or --var NAME=VALUE, or pass the state (--state), and run again.",
    check: "unresolved values",
  },
  CERT_CA_UNKNOWN: {
    short: "A certificate's CA, or an uploaded certificate's issuer, is not known offline.",
    full: "The certificate authority comes from an expression or is missing: pass the state (--state) so the audit can classify the certificate.",
    check: "certificates",
  },
  ZONE_WAF_SETTING: {
    short: "The zone's previous WAF is switched off (zone setting waf = \"off\"), or the switch is not known offline.",
    full: "With the previous WAF off, migrating must not turn protection on: the generated execute rules are disabled (enabled = false). Enable them when the zone should be protected, and remove the waf setting after migrating: it only controls the previous WAF. When the switch is an expression, check its value before applying.",
    check: "zone settings",
  },
  FIREWALL_RULE_BYPASS_OTHER_PRODUCTS: {
    short: "A bypass firewall rule also bypasses products other than the WAF: it stays for them.",
    full: "The generated skip rule replaces only the WAF part of the firewall rule. The firewall rule keeps bypassing the other products (uaBlock, rateLimit, ...); the migration does not delete it. Remove \"waf\" from its products after migrating.",
    check: "firewall rules bypassing the WAF",
  },
  DUPLICATE_ENTRY_POINT: {
    short: "Two http_request_firewall_managed entry point rulesets for one zone.",
    full: "A zone has exactly one entry point ruleset per phase: two cloudflare_ruleset resources for it fail to apply or overwrite each other. Keep one (merge the rules into it) and remove the other from the configuration and state.",
    check: "existing rulesets",
  },
  PAGE_RULE_TARGET_UNTRANSLATABLE: {
    short: "A Page Rule target cannot become a skip rule expression.",
    full: "The Page Rule's target has a non-ASCII host (use its punycode xn-- form), whitespace, an invalid port or another shape a URL pattern cannot have: no skip rule is generated for it, and the zone is not ready to migrate until the target is fixed.",
    check: "page rules",
  },
  LEGACY_REFERENCE: {
    short: "A kept expression refers to a legacy WAF block that step 6 deletes.",
    full: "An argument, depends_on, module call argument, or an output or local that also uses other values refers to a legacy WAF resource or data source (or to an output or local that only exposes one). Deleting the legacy blocks would leave the reference dangling and terraform validate would fail: remove the reference, or point it at the new cloudflare_ruleset, before step 6.",
    check: "references",
  },
  PROVIDER_FEATURE_MISSING: {
    short: "The provider version the root pins or locks lacks what the migration needs: a cloudflare_ruleset construct, or (after 3.35) the legacy resources themselves.",
    full: "The generated ruleset (or its import) needs a provider version the constraint or lock does not reach, e.g. importing a cloudflare_ruleset needs 3.29.0: raise the constraint to ~> 3.35. A root that pins or locks a provider after 3.35 while it still holds legacy resources cannot plan or import them: lower the constraint to ~> 3.35. Either way run terraform init -upgrade: 3.35 still has the legacy resources and the whole ruleset.",
    check: "provider versions",
  },
  PROVIDER_CONSTRAINT_MISSING: {
    short: "No version constraint for the Cloudflare provider (no required_providers entry, or one without a version) while legacy WAF resources remain.",
    full: "Without a version constraint the next terraform init installs the newest provider, where the cloudflare_waf_* resources no longer exist. Add cloudflare = { source = \"cloudflare/cloudflare\", version = \"~> 3.35\" } to required_providers.",
    check: "provider versions",
  },
  RULESET_CONSTRUCT_OMITTED: {
    short: "An optional construct was left out of the generated ruleset for the root's provider version.",
    full: "Logging on a skip rule needs provider 3.13.0, a rule's ref 4.2.0: below that they are left out of ruleset.tf. Add them back after raising the provider.",
    check: "provider versions",
  },
  IMPORT_BLOCKS_UNAVAILABLE: {
    short: "required_version admits Terraform below 1.5, or is missing: no import {} blocks.",
    full: "import {} blocks need Terraform 1.5 (OpenTofu: any release). The plan uses terraform import commands instead and writes no imports.tf; set required_version = \">= 1.5\" to get the blocks.",
    check: "provider versions",
  },
  ZONE_SPLIT_ACROSS_ROOTS: {
    short: "The zone's legacy WAF and its WAF bypasses live in several roots (or workspaces).",
    full: "A zone has one http_request_firewall_managed entry point. The plan writes its ruleset and import in one root (the one holding the zone's legacy WAF, else the first in path order; --ruleset-root ZONE_ID=ROOT chooses), with the skip rules of every root's bypassing firewall rules and Page Rules. The other roots only remove their own legacy resources.",
    check: "estate",
  },
  SERVICE_DISAGREES: {
    short: "The Cloudflare API and the offline rules disagree about the zone.",
    full: "With --online the service's check, configuration or status contradicts what the Terraform files say (a URI-based override that exists only outside Terraform, a ruleset the offline mapping builds differently, a migration state that cannot be read). The service wins where it can: the generated ruleset is the service's; read the message for what to fix.",
    check: "service",
  },
  SERVICE_CALL_FAILED: {
    short: "The Cloudflare API could not be asked about the zone.",
    full: "A call for this zone failed after retries (the message says which and why); its report entry is offline only. The other zones still completed. Run again later; answers already fetched come from the cache.",
    check: "service",
  },
  ZONE_ALREADY_MIGRATED: {
    short: "The service says the zone is already migrated.",
    full: "The new WAF is on and the previous WAF is off: no migration request is sent. The import uses the live entry point ruleset's id and the generated ruleset is that entry point; remove the legacy resources from state and config.",
    check: "service",
  },
  ZONE_IN_VALIDATION: {
    short: "The service says the zone is in validation mode (both WAFs on).",
    full: "Review Security Events, then finish the migration with pending (cf-waf-migrate api migrate --from REPORT --ledger FILE --finish, or api migrate --zone ZONE_ID --mode pending).",
    check: "service",
  },
  RULESET_SKIP_AFTER_EXECUTE: {
    short: "An existing http_request_firewall_managed ruleset has a skip rule after the execute rules it should skip.",
    full: "The Ruleset Engine evaluates a phase's rules in order: an execute rule before the skip rule has already run its managed ruleset when the skip matches, so the exception has no effect. Move the skip rule before the execute rules (and put merged skip rules first).",
    check: "existing rulesets",
  },
  BYPASS_IN_OTHER_ROOT: {
    short: "A root this run leaves out bypasses the WAF for a zone it migrates: the ruleset planned here lacks that skip rule.",
    full: "A Page Rule with Disable Security or WAF Off, or a firewall rule with Bypass > WAF, in another root of the repository (found next to the roots planned: the nearest directory with .git) becomes a skip rule of the zone's one http_request_firewall_managed entry point. Planned without that root, the ruleset has no such skip rule, so after the migration the new WAF acts on what the rule let through. Plan the repository together (one ruleset with every root's skip rules), or pass that root too; apply refuses until the root's ruleset has the skip rule or --accept-missing-skip-rules is given.",
    check: "estate",
  },
  LEGACY_WAF_IN_OTHER_ROOT: {
    short: "A root this run leaves out configures the legacy WAF of a zone whose ruleset this run plans: the ruleset belongs there.",
    full: "A zone has one http_request_firewall_managed entry point, and its ruleset belongs in the root holding the zone's legacy WAF (cloudflare_waf_package, _group, _rule, _override). Planned in another root, it would be imported there while the legacy root's own migration imports the same entry point (two roots managing one ruleset, each apply overwriting the other), and it is built without the zone's package settings (the core rule set at the spec's Default row). Plan the repository together (the estate plan puts the ruleset with the legacy WAF and every root's skip rules; --ruleset-root ZONE_ID=ROOT picks another root); apply and migrate.sh refuse.",
    check: "estate",
  },
};

const INPUT_ERROR_DOC: RuleDoc = {
  short: "Input that could not be read or parsed.",
  full: "A configuration or state file could not be read or parsed; the report lists everything that could be read, and the exit code is 2.",
  check: "inputs",
};

export function isKnownCode(code: string): code is keyof typeof FINDING_CODES {
  return Object.prototype.hasOwnProperty.call(FINDING_CODES, code);
}

/** The documentation of a code; codes this build does not know get a generic text (never thrown away). */
export function ruleDoc(code: string): RuleDoc {
  if (code === INPUT_ERROR) return INPUT_ERROR_DOC;
  if (isKnownCode(code)) return DOCS[code];
  return { short: `Finding ${code}.`, full: `Finding ${code}; see the finding codes in the README.`, check: code };
}

/** The code's default severity (FINDING_CODES), or `fallback` for a code this build does not know. */
export function defaultSeverity(code: string, fallback: Severity): Severity {
  if (code === INPUT_ERROR) return "error";
  return isKnownCode(code) ? FINDING_CODES[code] : fallback;
}

/** Order of codes in rule lists: FINDING_CODES order, then unknown codes alphabetically, INPUT_ERROR last. */
export function compareCodes(a: string, b: string): number {
  const order = Object.keys(FINDING_CODES);
  const rank = (c: string) => (c === INPUT_ERROR ? order.length + 1 : isKnownCode(c) ? order.indexOf(c) : order.length);
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** `URI_WAF_OVERRIDE` → `UriWafOverride` (SARIF reportingDescriptor.name). */
export function ruleName(code: string): string {
  return code
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("");
}

/**
 * SARIF `reportingDescriptor.help`: what the code means and what to do, as plain text and Markdown.
 * GitHub code scanning shows it under each alert (without it the alert carries only its one-line message).
 */
export function ruleHelp(code: string, level: Severity): { text: string; markdown: string } {
  const doc = ruleDoc(code);
  const uri = code === INPUT_ERROR ? INPUT_ERROR_HELP_URI : FINDING_CODES_HELP_URI;
  const what = code === INPUT_ERROR ? "Exit codes and unreadable input" : `Finding codes (${code})`;
  return {
    text: `${doc.short}\n\n${doc.full}\n\nDefault severity: ${level}. See ${uri}`,
    markdown: `**${doc.short}**\n\n${doc.full}\n\nDefault severity: \`${level}\`. See [${what}](${uri}).`,
  };
}
