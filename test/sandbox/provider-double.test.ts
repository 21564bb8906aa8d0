// The Cloudflare provider double under the real terraform: offline init from the mirror (several versions
// side by side, upgrade between them), schema-exact validation, apply/destroy against the simulated
// account (including the legacy reset-on-destroy trap), the retired legacy API after migration, and the
// ruleset import that ends in a clean plan.

import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageHash } from "../../dist/sandbox/index.js";
import { ENTRY_POINT, legacyZone, OWASP_PACKAGE, providerBlock, ROBOTS_GROUP, SQLI_RULE, TERRAFORM, TerraformHarness, WP_GROUP, ZONE_ID } from "./harness.js";

const V3 = "3.35.0";
const V4 = "4.52.8";
const SLOW = 600_000;

let h: TerraformHarness;
beforeAll(() => {
  h = new TerraformHarness([V3, V4], TERRAFORM, { reattach: true });
});
afterAll(() => h?.teardown());

const LEGACY_TF = `
resource "cloudflare_waf_package" "owasp" {
  zone_id     = "${ZONE_ID}"
  package_id  = "${OWASP_PACKAGE}"
  sensitivity = "low"
  action_mode = "simulate"
}

resource "cloudflare_waf_group" "robots" {
  zone_id  = "${ZONE_ID}"
  group_id = "${ROBOTS_GROUP}"
  mode     = "off"
}

resource "cloudflare_waf_rule" "sqli" {
  zone_id = "${ZONE_ID}"
  rule_id = "${SQLI_RULE}"
  mode    = "simulate"
}
`;

/** The replacement entry point ruleset, in the block syntax of provider 3.x/4.x. */
const RULESET_TF = `
resource "cloudflare_ruleset" "waf" {
  zone_id     = "${ZONE_ID}"
  name        = "default"
  description = ""
  kind        = "zone"
  phase       = "http_request_firewall_managed"

  rules {
    action      = "execute"
    expression  = "true"
    description = "Cloudflare Managed Ruleset"
    enabled     = true
    action_parameters {
      id = "efb7b8c949ac4650a09736fc376e9aee"
      overrides {
        rules {
          id      = "5de7edfa648c4d6891dc3e7f84534ffa"
          action  = "log"
          enabled = true
        }
      }
    }
  }

  rules {
    action      = "execute"
    expression  = "true"
    description = "Cloudflare OWASP Core Ruleset"
    enabled     = true
    action_parameters {
      id = "4814384a9e5d4991b9815dcfc25d2f1f"
      overrides {
        categories {
          category = "paranoia-level-2"
          enabled  = false
        }
      }
    }
  }
}
`;

/** The entry point ruleset as the service holds it (API shape), matching RULESET_TF. */
function entryPoint() {
  return {
    [ENTRY_POINT]: {
      name: "default",
      description: "",
      kind: "zone",
      phase: "http_request_firewall_managed",
      rules: [
        {
          id: "8c9d4f3e6a2b4d1f9e0a7b6c5d4e3f2a",
          version: "1",
          ref: "8c9d4f3e6a2b4d1f9e0a7b6c5d4e3f2a",
          action: "execute",
          expression: "true",
          description: "Cloudflare Managed Ruleset",
          enabled: true,
          action_parameters: { id: "efb7b8c949ac4650a09736fc376e9aee", overrides: { rules: [{ id: "5de7edfa648c4d6891dc3e7f84534ffa", action: "log", enabled: true }] } },
        },
        {
          id: "1b2c3d4e5f60718293a4b5c6d7e8f901",
          version: "1",
          ref: "1b2c3d4e5f60718293a4b5c6d7e8f901",
          action: "execute",
          expression: "true",
          description: "Cloudflare OWASP Core Ruleset",
          enabled: true,
          action_parameters: { id: "4814384a9e5d4991b9815dcfc25d2f1f", overrides: { categories: [{ category: "paranoia-level-2", enabled: false }] } },
        },
      ],
    },
  };
}

describe("provider double under the real terraform", () => {
  it(
    "installs 3.35.0 and 4.52.8 side by side from the mirror, offline, with the hash the package has everywhere",
    async () => {
      for (const version of [V3, V4]) {
        const root = h.root(`init-${version}`, { "main.tf": providerBlock(version) });
        const init = await root.tf("init", "-input=false");
        expect(init.stderr).toBe("");
        expect(init.code).toBe(0);
        expect(init.stdout).toContain(`Installing cloudflare/cloudflare v${version}`);
        const lock = root.read(".terraform.lock.hcl");
        expect(lock).toContain(`version     = "${version}"`);
        expect(lock).toContain(packageHash(h.mirror.mirrorDir, version));
      }
    },
    SLOW,
  );

  it(
    "validate accepts a correct 3.35 configuration and rejects a misspelled attribute, as the real schema does",
    async () => {
      const good = `${providerBlock(V3)}${LEGACY_TF}${RULESET_TF}
resource "cloudflare_zone_settings_override" "s" {
  zone_id = "${ZONE_ID}"
  settings {
    waf = "off"
    minify {
      css  = "on"
      js   = "off"
      html = "off"
    }
  }
}

resource "cloudflare_filter" "bypass" {
  zone_id    = "${ZONE_ID}"
  expression = "ip.src eq 192.0.2.1"
}

resource "cloudflare_firewall_rule" "bypass" {
  zone_id   = "${ZONE_ID}"
  filter_id = cloudflare_filter.bypass.id
  action    = "bypass"
  products  = ["waf"]
}

resource "cloudflare_page_rule" "admin" {
  zone_id = "${ZONE_ID}"
  target  = "example.com/admin*"
  actions {
    waf = "off"
  }
}

data "cloudflare_waf_groups" "owasp" {
  zone_id    = "${ZONE_ID}"
  package_id = "${OWASP_PACKAGE}"
  filter {
    mode = "on"
  }
}

data "cloudflare_zone" "z" {
  zone_id = "${ZONE_ID}"
}
`;
      const root = h.root("validate-3", { "main.tf": good });
      expect((await root.tf("init", "-input=false")).code).toBe(0);
      const ok = await root.tf("validate");
      expect(ok.stderr).toBe("");
      expect(ok.code).toBe(0);

      root.write("main.tf", good.replace('sensitivity = "low"', 'sensitivty = "low"'));
      const bad = await root.tf("validate");
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('An argument named "sensitivty" is not expected here. Did you mean "sensitivity"?');

      // The provider's own check (StringInSlice in the source), answered from ValidateResourceTypeConfig.
      root.write("main.tf", good.replace('mode     = "off"', 'mode     = "of"'));
      const badMode = await root.tf("validate");
      expect(badMode.code).toBe(1);
      expect(badMode.stderr).toContain('Error: expected mode to be one of ["on" "off"], got of');
      expect(badMode.stderr).toContain('in resource "cloudflare_waf_group" "robots"');

      // A page rule needs its actions block (MinItems 1 in the source).
      root.write("main.tf", good.replace(/actions \{\n    waf = "off"\n  \}/, ""));
      const noActions = await root.tf("validate");
      expect(noActions.code).toBe(1);
      expect(noActions.stderr).toContain('At least 1 "actions" blocks are required.');
    },
    SLOW,
  );

  it(
    "validate rejects a 5.x-style ruleset (attribute syntax) under 3.35 and 4.52, and the legacy types under 4.52",
    async () => {
      const v5Style = `
resource "cloudflare_ruleset" "waf" {
  zone_id = "${ZONE_ID}"
  name    = "default"
  kind    = "zone"
  phase   = "http_request_firewall_managed"
  rules = [{
    action            = "execute"
    expression        = "true"
    action_parameters = { id = "efb7b8c949ac4650a09736fc376e9aee" }
  }]
}
`;
      for (const version of [V3, V4]) {
        const root = h.root(`validate-v5-${version}`, { "main.tf": providerBlock(version) + v5Style });
        expect((await root.tf("init", "-input=false")).code).toBe(0);
        const r = await root.tf("validate");
        expect(r.code).toBe(1);
        expect(r.stderr).toContain('An argument named "rules" is not expected here. Did you mean to define a block of type "rules"?');
      }
      const legacyUnder4 = h.root("validate-legacy-4", { "main.tf": providerBlock(V4) + LEGACY_TF });
      expect((await legacyUnder4.tf("init", "-input=false")).code).toBe(0);
      const r = await legacyUnder4.tf("validate");
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('The provider cloudflare/cloudflare does not support resource type "cloudflare_waf_package".');
    },
    SLOW,
  );

  it(
    "apply sets the legacy WAF in the account; destroying the group puts its default back; reads fail once the zone is migrated",
    async () => {
      const root = h.root("legacy", { "main.tf": providerBlock(V3) + LEGACY_TF }, [legacyZone()]);
      expect((await root.tf("init", "-input=false")).code).toBe(0);
      const apply = await root.tf("apply", "-auto-approve", "-input=false");
      expect(apply.stderr).toBe("");
      expect(apply.code).toBe(0);
      let waf = root.account().zones[ZONE_ID]!.waf!;
      expect(waf.packages!.find((p) => p.id === OWASP_PACKAGE)).toMatchObject({ sensitivity: "low", action_mode: "simulate" });
      expect(waf.groups!.find((g) => g.id === ROBOTS_GROUP)!.mode).toBe("off");
      expect(waf.rules!.find((r) => r.id === SQLI_RULE)!.mode).toBe("simulate");

      const clean = await root.tf("plan", "-detailed-exitcode", "-input=false");
      expect(clean.code).toBe(0);

      // The trap: destroying the resource does not leave the setting alone, it resets it to its default.
      const destroy = await root.tf("destroy", "-auto-approve", "-input=false", "-target=cloudflare_waf_group.robots");
      expect(destroy.code).toBe(0);
      waf = root.account().zones[ZONE_ID]!.waf!;
      expect(waf.groups!.find((g) => g.id === ROBOTS_GROUP)!.mode).toBe("on");
      expect(waf.rules!.find((r) => r.id === SQLI_RULE)!.mode).toBe("simulate");
      expect(waf.groups!.find((g) => g.id === WP_GROUP)!.mode).toBe("off");

      root.editAccount((a) => {
        a.zones[ZONE_ID]!.migrated = true;
      });
      const afterMigration = await root.tf("plan", "-detailed-exitcode", "-input=false");
      expect(afterMigration.code).toBe(1);
      expect(afterMigration.stderr).toContain("the previous managed rules API is no longer available for zone " + ZONE_ID);
    },
    SLOW,
  );

  it(
    "the legacy data sources and cloudflare_zone read the account; the legacy ones fail once the zone is migrated",
    async () => {
      const tf = `${providerBlock(V3)}
data "cloudflare_waf_packages" "owasp" {
  zone_id = "${ZONE_ID}"
  filter {
    name = "^OWASP"
  }
}

data "cloudflare_waf_groups" "all" {
  zone_id = "${ZONE_ID}"
}

data "cloudflare_waf_rules" "wp" {
  zone_id = "${ZONE_ID}"
  filter {
    group_id = "${WP_GROUP}"
  }
}

data "cloudflare_zone" "z" {
  name = "example.com"
}

output "owasp" { value = data.cloudflare_waf_packages.owasp.packages[*].id }
output "groups" { value = { for g in data.cloudflare_waf_groups.all.groups : g.name => g.mode } }
output "rules" { value = data.cloudflare_waf_rules.wp.rules[*].allowed_modes }
output "zone" { value = [data.cloudflare_zone.z.id, data.cloudflare_zone.z.plan] }
`;
      const token = "trace-must-not-show-this-token-0123456789";
      const withToken = tf.replace('provider "cloudflare" {}', `provider "cloudflare" {\n  api_token = "${token}"\n}`);
      const root = h.root("data", { "main.tf": withToken }, [legacyZone()]);
      const traceFile = path.join(root.accountDir, "rpc-trace.jsonl");
      root.env.CF_DOUBLE_LOG = traceFile;
      expect((await root.tf("init", "-input=false")).code).toBe(0);
      const apply = await root.tf("apply", "-auto-approve", "-input=false");
      expect(apply.stderr).toBe("");
      expect(apply.code).toBe(0);
      const out = JSON.parse((await root.tf("output", "-json")).stdout) as Record<string, { value: unknown }>;
      expect(out.owasp!.value).toEqual([OWASP_PACKAGE]);
      expect(out.groups!.value).toEqual({ "OWASP Bad Robots": "on", "Cloudflare WordPress": "off" });
      expect(out.rules!.value).toEqual([["default", "disable", "simulate", "block", "challenge"]]);
      expect(out.zone!.value).toEqual([ZONE_ID, "enterprise"]);
      const trace = readFileSync(traceFile, "utf8");
      expect(trace).toContain('"rpc":"ReadDataSource"');
      expect(trace).toContain('"api_token":"(redacted)"');
      expect(trace).not.toContain(token);

      root.editAccount((a) => {
        a.zones[ZONE_ID]!.migrated = true;
      });
      const after = await root.tf("plan", "-input=false");
      expect(after.code).toBe(1);
      expect(after.stderr).toContain("error reading WAF packages: HTTP status 403: the previous managed rules API is no longer available");
    },
    SLOW,
  );

  for (const version of [V3, V4]) {
    it(
      `${version}: state rm + import of the entry point ruleset ends in a clean plan; a changed rule in the account shows as a rule-level diff`,
      async () => {
        const root = h.root(`import-${version}`, { "main.tf": providerBlock(version) + RULESET_TF }, [legacyZone({ migrated: true, rulesets: entryPoint() })]);
        expect((await root.tf("init", "-input=false")).code).toBe(0);
        const imp = await root.tf("import", "-input=false", "cloudflare_ruleset.waf", `zone/${ZONE_ID}/${ENTRY_POINT}`);
        expect(imp.stderr).toBe("");
        expect(imp.code).toBe(0);

        // The migration's steps 3-5 and 7 in miniature: drop from state, import again, and the plan is clean.
        expect((await root.tf("state", "rm", "cloudflare_ruleset.waf")).code).toBe(0);
        const again = await root.tf("import", "-input=false", "cloudflare_ruleset.waf", `zone/${ZONE_ID}/${ENTRY_POINT}`);
        expect(again.code).toBe(0);
        const plan = await root.tf("plan", "-detailed-exitcode", "-input=false");
        expect(plan.stderr).toBe("");
        expect(plan.code).toBe(0);

        root.editAccount((a) => {
          const rules = (a.zones[ZONE_ID]!.rulesets![ENTRY_POINT] as { rules: { action_parameters: { overrides: { rules?: { action: string }[] } } }[] }).rules;
          rules[0]!.action_parameters.overrides.rules![0]!.action = "block";
        });
        const drift = await root.tf("plan", "-detailed-exitcode", "-input=false");
        expect(drift.code).toBe(2);
        expect(drift.stdout).toMatch(/~ action\s+= "block" -> "log"/);
        expect(drift.stdout).toContain("Plan: 0 to add, 1 to change, 0 to destroy.");

        const badId = await root.tf("import", "-input=false", "cloudflare_ruleset.other", `zones/${ZONE_ID}/${ENTRY_POINT}`);
        expect(badId.code).toBe(1);
      },
      SLOW,
    );
  }

  it(
    "4.52.8 (plugin-framework ruleset): apply creates the ruleset with service ids, a rule edit updates only that rule, a second entry point is refused",
    async () => {
      const root = h.root("ruleset-apply", { "main.tf": providerBlock(V4) + RULESET_TF }, [legacyZone({ migrated: true })]);
      expect((await root.tf("init", "-input=false")).code).toBe(0);
      const create = await root.tf("apply", "-auto-approve", "-input=false");
      expect(create.stderr).toBe("");
      expect(create.code).toBe(0);
      const rulesets = () => Object.entries(root.account().zones[ZONE_ID]!.rulesets ?? {});
      expect(rulesets()).toHaveLength(1);
      const [id, stored] = rulesets()[0]! as [string, { rules: { id: string; action_parameters: { overrides: Record<string, unknown> } }[] }];
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      expect(stored.rules.map((r) => r.id)).toEqual([expect.stringMatching(/^[0-9a-f]{32}$/), expect.stringMatching(/^[0-9a-f]{32}$/)]);
      expect(stored.rules[1]!.action_parameters.overrides).toEqual({ categories: [{ category: "paranoia-level-2", enabled: false }] });
      expect((await root.tf("plan", "-detailed-exitcode", "-input=false")).code).toBe(0);

      root.write("main.tf", providerBlock(V4) + RULESET_TF.replace('action  = "log"', 'action  = "block"'));
      const update = await root.tf("apply", "-auto-approve", "-input=false");
      expect(update.code).toBe(0);
      expect(update.stdout).toContain("1 changed");
      const after = rulesets()[0]![1] as typeof stored;
      expect(after.rules[0]!.action_parameters.overrides).toEqual({ rules: [{ id: "5de7edfa648c4d6891dc3e7f84534ffa", action: "block", enabled: true }] });
      expect(after.rules.map((r) => r.id)).toEqual(stored.rules.map((r) => r.id));

      root.write("second.tf", RULESET_TF.replace('"cloudflare_ruleset" "waf"', '"cloudflare_ruleset" "again"'));
      const second = await root.tf("apply", "-auto-approve", "-input=false");
      expect(second.code).toBe(1);
      expect(second.stderr).toContain("A similar configuration with rules already exists");
    },
    SLOW,
  );

  it(
    "init -upgrade moves a root from 3.35.0 to 4.52.8 and the imported ruleset's state carries over to a clean plan",
    async () => {
      const root = h.root("upgrade", { "main.tf": providerBlock(V3) + RULESET_TF }, [legacyZone({ migrated: true, rulesets: entryPoint() })]);
      expect((await root.tf("init", "-input=false")).code).toBe(0);
      expect((await root.tf("import", "-input=false", "cloudflare_ruleset.waf", `zone/${ZONE_ID}/${ENTRY_POINT}`)).code).toBe(0);

      root.write("main.tf", providerBlock("~> 4.52") + RULESET_TF);
      const plain = await root.tf("init", "-input=false");
      expect(plain.code).toBe(1);
      expect(plain.stderr).toContain("terraform init -upgrade");

      const upgrade = await root.tf("init", "-input=false", "-upgrade");
      expect(upgrade.code).toBe(0);
      expect(upgrade.stdout).toContain(`Installing cloudflare/cloudflare v${V4}`);
      expect(root.read(".terraform.lock.hcl")).toContain(`version     = "${V4}"`);

      const plan = await root.tf("plan", "-detailed-exitcode", "-input=false");
      expect(plan.stderr).toBe("");
      expect(plan.code).toBe(0);
    },
    SLOW,
  );
});
