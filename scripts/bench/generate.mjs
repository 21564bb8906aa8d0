// Deterministic generators for the scale benchmark (and for tests, at a tiny size): a Cloudflare-heavy
// Terraform tree, a monorepo where a few percent of the files touch Cloudflare, and v4 state files.
// Everything is derived from a seed, so the same seed and sizes give byte-identical output.
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";

/** Bump when the generated text changes, so cached trees are regenerated. */
export const GENERATOR_VERSION = 6;

// ---------------------------------------------------------------------------------------------------
// Random numbers

export function rng(seed) {
  let a = seed >>> 0 || 1;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const r = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (arr) => arr[Math.floor(next() * arr.length)],
    chance: (p) => next() < p,
    hex: (n) => {
      let s = "";
      for (let i = 0; i < n; i++) s += "0123456789abcdef"[Math.floor(next() * 16)];
      return s;
    },
    word: () => r.pick(WORDS),
  };
  return r;
}

const WORDS = [
  "api", "shop", "blog", "admin", "edge", "static", "cdn", "auth", "login", "checkout", "cart", "search", "media",
  "partner", "legacy", "mobile", "graphql", "upload", "status", "health", "docs", "billing", "support", "assets",
];
const WAF_RULE_IDS = ["100000356", "100008", "100015", "100016", "100001", "100030", "100173", "958000", "973300", "981176"];
const GROUP_IDS = ["de677e5818985db1285d0e80225f06e5", "cfda825dfda411ea218cb70e6c88e82e", "a72a1eba5e7d4e6a8c3f2b1d0e9f8a7b"];
const PACKAGE_IDS = ["a25a9a7e9c00afc1fb2e0245519d725b", "1e334934fd7ae32ad705667f8c1057aa", "c504870194831cd12c3fc0284f294abb"];
const MANAGED_RULESET = "efb7b8c949ac4650a09736fc376e9aee";
const OWASP_RULESET = "4814384a9e5d4991b9815dcfc25d2f1f";

// ---------------------------------------------------------------------------------------------------
// Cloudflare-shaped blocks. Each returns HCL text; `ctx` holds the names in scope of the current module.

function comment(r) {
  return r.pick([
    `# ${r.word()} ${r.word()}: managed by the ${r.word()} team\n`,
    `// Keep in sync with the ${r.word()} runbook (${r.hex(6)}).\n`,
    `/* ${r.word()} ${r.word()}\n   reviewed ${2019 + r.int(0, 5)}-0${r.int(1, 9)} */\n`,
    "",
  ]);
}

function zoneRef(r, ctx) {
  return r.pick([
    `cloudflare_zone.${r.pick(ctx.zones)}.id`,
    `var.zone_id`,
    `local.zone_ids["${r.pick(ctx.zones)}"]`,
    `"${r.hex(32)}"`,
  ]);
}

const cfShapes = {
  waf_package(r, ctx, n) {
    return `${comment(r)}resource "cloudflare_waf_package" "pkg_${n}" {
  zone_id     = ${zoneRef(r, ctx)}
  package_id  = "${r.pick(PACKAGE_IDS)}"
  sensitivity = "${r.pick(["high", "medium", "low", "off"])}"
  action_mode = "${r.pick(["simulate", "block", "challenge"])}"
}
`;
  },
  waf_group(r, ctx, n) {
    const ids = Array.from({ length: r.int(2, 4) }, () => `"${r.pick(GROUP_IDS)}"`);
    return `${comment(r)}resource "cloudflare_waf_group" "grp_${n}" {
  count      = length(local.zone_ids)
  zone_id    = ${zoneRef(r, ctx)}
  group_id   = element([${ids.join(", ")}], count.index)
  package_id = "${r.pick(PACKAGE_IDS)}"
  mode       = count.index == 0 ? "off" : "on"
}
`;
  },
  waf_rule(r, ctx, n) {
    const entries = Array.from({ length: r.int(3, 8) }, () => `    "${r.pick(WAF_RULE_IDS)}${r.int(0, 99)}" = "${r.pick(["simulate", "disable", "block", "challenge"])}"`);
    return `${comment(r)}resource "cloudflare_waf_rule" "rule_${n}" {
  for_each = {
${entries.join("\n")}
  }

  zone_id = ${zoneRef(r, ctx)}
  rule_id = each.key
  mode    = each.value # ${r.word()}
}
`;
  },
  waf_override(r, ctx, n) {
    const host = `${r.word()}.example.com`;
    const rules = Array.from({ length: r.int(2, 6) }, () => `    "${r.pick(WAF_RULE_IDS)}" : "${r.pick(["disable", "simulate", "block"])}",`);
    return `${comment(r)}resource "cloudflare_waf_override" "ovr_${n}" {
  zone_id     = ${zoneRef(r, ctx)}
  description = "Override ${n} for ${host} \\"${r.word()}\\""
  urls        = ["${host}/${r.word()}/*", "${host}/${r.word()}"]
  priority    = ${r.int(1, 100)}
  paused      = ${r.pick(["false", "true"])}

  rules = {
${rules.join("\n")}
  }
  groups = {
    "${r.pick(GROUP_IDS)}" = "default"
  }
  rewrite_action = {
    default   = "block"
    challenge = "${r.pick(["block", "simulate"])}"
  }
}
`;
  },
  filter_and_rule(r, ctx, n) {
    const path1 = `/${r.word()}/${r.word()}`;
    const heredoc = r.chance(0.5);
    const expr = heredoc
      ? `<<-EOT
    (http.request.uri.path contains "${path1}" and ip.src in {192.0.2.${r.int(1, 254)} 198.51.100.${r.int(1, 254)}})
    or (http.host eq "${r.word()}.example.com" and not cf.client.bot)
  EOT`
      : `"(http.request.uri.path eq \\"${path1}\\" and http.request.method in {\\"GET\\" \\"POST\\"})"`;
    const products = r.pick([`["waf"]`, `["waf", "uaBlock"]`, `toset(["waf", "rateLimit"])`, `["zoneLockdown"]`]);
    return `${comment(r)}resource "cloudflare_filter" "flt_${n}" {
  zone_id     = ${zoneRef(r, ctx)}
  description = "Filter ${n}: ${r.word()} traffic"
  expression  = ${expr}
  paused      = false
}

resource "cloudflare_firewall_rule" "fw_${n}" {
  zone_id     = cloudflare_filter.flt_${n}.zone_id
  description = "Rule ${n} (\${var.environment})"
  filter_id   = cloudflare_filter.flt_${n}.id
  action      = "${r.pick(["bypass", "block", "challenge", "allow", "js_challenge", "log"])}"
  products    = ${products}
  priority    = ${r.int(1, 1000)}
}
`;
  },
  page_rule(r, ctx, n) {
    const host = `${r.word()}.example.${r.pick(["com", "org", "net"])}`;
    return `${comment(r)}resource "cloudflare_page_rule" "pr_${n}" {
  zone_id  = ${zoneRef(r, ctx)}
  target   = "*${host}/${r.word()}/*"
  priority = ${r.int(1, 50)}
  status   = "${r.pick(["active", "disabled"])}"

  actions {
    security_level   = "${r.pick(["essentially_off", "low", "medium", "high"])}"
    waf              = "${r.pick(["on", "off"])}"
    disable_security = ${r.pick(["true", "false"])}
    cache_level      = "cache_everything"
    edge_cache_ttl   = ${r.int(60, 86400)}

    cache_key_fields {
      cookie {
        check_presence = ["session_${r.word()}"]
      }
      header {
        exclude = ["origin"]
      }
      host {}
      query_string {
        ignore = ${r.pick(["true", "false"])}
      }
      user {
        device_type = true
        geo         = false
      }
    }

    forwarding_url {
      url         = "https://${host}/$1"
      status_code = ${r.pick([301, 302])}
    }

    minify {
      html = "off"
      css  = "on"
      js   = "on"
    }
  }
}
`;
  },
  ruleset(r, ctx, n) {
    const rules = [];
    const count = r.int(3, 7);
    for (let i = 0; i < count; i++) {
      rules.push(`  rules {
    action = "execute"
    action_parameters {
      id      = "${r.pick([MANAGED_RULESET, OWASP_RULESET])}"
      version = "latest"
      overrides {
        enabled = ${r.pick(["true", "false"])}
        categories {
          category = "${r.pick(["wordpress", "joomla", "drupal", "php"])}"
          action   = "${r.pick(["block", "log"])}"
          enabled  = true
        }
        rules {
          id              = "${r.hex(32)}"
          action          = "log"
          score_threshold = ${r.int(25, 60)}
        }
      }
    }
    expression  = "(http.host eq \\"${r.word()}.example.com\\" and http.request.uri.path matches \\"^/${r.word()}/\\")"
    description = "Managed rules ${i} for ${r.word()}"
    enabled     = ${r.pick(["true", "false"])}
  }
`);
    }
    return `${comment(r)}resource "cloudflare_ruleset" "rs_${n}" {
  zone_id     = ${zoneRef(r, ctx)}
  name        = "Managed WAF ${n}"
  description = "Zone-level WAF managed ruleset"
  kind        = "zone"
  phase       = "http_request_firewall_managed"

${rules.join("\n")}
  dynamic "rules" {
    for_each = var.extra_skip_paths
    content {
      action = "skip"
      action_parameters {
        ruleset = "current"
      }
      expression  = "(http.request.uri.path eq \\"\${rules.value}\\")"
      description = "skip \${rules.key}"
      enabled     = true
    }
  }
}
`;
  },
  legacy_data(r, ctx, n) {
    return `${comment(r)}data "cloudflare_waf_${r.pick(["packages", "groups"])}" "lookup_${n}" {
  zone_id = ${zoneRef(r, ctx)}

  filter {
    name = ".*${r.pick(["OWASP", "Cloudflare", "WordPress"])}.*"
  }
}
`;
  },
  access_rule(r, ctx, n) {
    return `${comment(r)}resource "cloudflare_access_rule" "acl_${n}" {
  zone_id = ${zoneRef(r, ctx)}
  mode    = "${r.pick(["block", "challenge", "whitelist"])}"
  notes   = <<EOF
Requested in ticket SEC-${r.int(1000, 9999)} by the ${r.word()} team.
Review after ${2024 + r.int(0, 3)}-0${r.int(1, 9)}-1${r.int(0, 9)}; see \${var.runbook_url}.
EOF

  configuration {
    target = "ip_range"
    value  = "198.51.${r.int(0, 255)}.0/24"
  }

  lifecycle {
    ignore_changes = [notes]
  }
}
`;
  },
  record(r, ctx, n) {
    return `${comment(r)}resource "cloudflare_record" "rec_${n}" {
  zone_id = ${zoneRef(r, ctx)}
  name    = "${r.word()}-${n}"
  type    = "${r.pick(["A", "CNAME", "TXT"])}"
  value   = "${r.pick(["192.0.2.", "198.51.100."])}${r.int(1, 254)}"
  ttl     = ${r.pick([1, 300, 3600])}
  proxied = ${r.pick(["true", "false"])}
}
`;
  },
  variable(r, ctx, n) {
    return `${comment(r)}variable "tuning_${n}" {
  type = map(object({
    sensitivity = string
    action_mode = string
  }))
  description = "Per-zone WAF tuning (${r.word()})."
  default = {
    ${r.word()} = {
      sensitivity = "${r.pick(["high", "medium", "low"])}"
      action_mode = "simulate"
    }
  }

  validation {
    condition     = alltrue([for k, v in var.tuning_${n} : contains(["high", "medium", "low", "off"], v.sensitivity)])
    error_message = "Sensitivity must be high, medium, low or off."
  }
}
`;
  },
  locals(r, ctx, n) {
    return `${comment(r)}locals {
  groups_${n} = [for g in ${JSON.stringify(GROUP_IDS.slice(0, r.int(1, 3)))} : g if length(g) == 32]
  paths_${n}      = { for p in ["${r.word()}", "${r.word()}", "${r.word()}"] : p => "/\${p}/*" }
  banner_${n} = <<-EOT
    WAF tuning for %{if var.environment == "prod"}production%{else}\${var.environment}%{endif}
    zones: \${join(", ", keys(local.zone_ids))}
  EOT
}
`;
  },
  output(r, ctx, n) {
    return `output "firewall_rule_${n}" {
  value       = { for k, v in cloudflare_filter.flt_${n} : k => v.id if v != null }
  description = "Filter ${n}"
  sensitive   = ${r.pick(["true", "false"])}
}
`;
  },
};

/** Every shape the tool reads appears in every Cloudflare file; the rest is filled with a weighted mix. */
const CF_REQUIRED = ["waf_package", "waf_group", "waf_rule", "waf_override", "filter_and_rule", "page_rule", "ruleset", "legacy_data"];
const CF_MIX = [
  ["filter_and_rule", 5],
  ["page_rule", 2],
  ["ruleset", 2],
  ["waf_rule", 2],
  ["waf_override", 2],
  ["waf_group", 1],
  ["waf_package", 1],
  ["legacy_data", 1],
  ["access_rule", 2],
  ["record", 3],
  ["variable", 1],
  ["locals", 1],
  ["output", 2],
];

function weighted(r, table) {
  const total = table.reduce((s, [, w]) => s + w, 0);
  let x = r.next() * total;
  for (const [k, w] of table) {
    if ((x -= w) < 0) return k;
  }
  return table[table.length - 1][0];
}

function cfFile(r, ctx, targetBytes, required = CF_REQUIRED) {
  const parts = [];
  let size = 0;
  const add = (shape) => {
    const text = cfShapes[shape](r, ctx, ctx.counter++);
    parts.push(text);
    size += text.length + 1;
  };
  for (const s of required) add(s);
  while (size < targetBytes) add(weighted(r, CF_MIX));
  return parts.join("\n");
}

function cfJsonFile(r, ctx) {
  const n = ctx.counter++;
  const doc = {
    "//": "Exported by the security team's tool; do not edit by hand.",
    resource: {
      cloudflare_waf_rule: {
        [`json_rule_${n}`]: { zone_id: "${cloudflare_zone." + ctx.zones[0] + ".id}", rule_id: r.pick(WAF_RULE_IDS), mode: "disable" },
      },
      cloudflare_filter: { [`json_flt_${n}`]: { zone_id: `${r.hex(32)}`, expression: `(ip.src eq 192.0.2.${r.int(1, 254)})` } },
      cloudflare_firewall_rule: {
        [`json_fw_${n}`]: { zone_id: `\${cloudflare_filter.json_flt_${n}.zone_id}`, filter_id: `\${cloudflare_filter.json_flt_${n}.id}`, action: "bypass", products: ["waf"] },
      },
    },
  };
  return JSON.stringify(doc, null, 2) + "\n";
}

function cfMainTf(r, ctx, modulesRel) {
  const zones = ctx.zones
    .map(
      (z) => `resource "cloudflare_zone" "${z}" {
  account_id = var.account_id
  zone       = "${z}-${r.hex(4)}.example.com"
  plan       = "${r.pick(["enterprise", "business", "pro", "free"])}"
}
`,
    )
    .join("\n");
  return `terraform {
  required_version = ">= 1.5.0"
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 3.30"
    }
  }
}

provider "cloudflare" {}

variable "account_id" {
  type    = string
  default = "${r.hex(32)}"
}

variable "zone_id" {
  type    = string
  default = "${r.hex(32)}"
}

variable "environment" {
  type    = string
  default = "${r.pick(["prod", "staging", "dev"])}"
}

variable "extra_skip_paths" {
  type    = map(string)
  default = { health = "/healthz" }
}

variable "runbook_url" {
  type    = string
  default = "https://runbooks.example.com/waf"
}

locals {
  zone_ids = {
${ctx.zones.map((z) => `    ${z} = cloudflare_zone.${z}.id`).join("\n")}
  }
}

${zones}
# The shared WAF module, once per zone.
module "edge" {
  source   = "${modulesRel}/edge"
  for_each = local.zone_ids

  zone_id     = each.value
  environment = var.environment
}

module "legacy_waf" {
  source = "${modulesRel}/waf-zone"
  count  = var.environment == "prod" ? 1 : 0

  zone_id     = cloudflare_zone.${ctx.zones[0]}.id
  environment = var.environment
}
`;
}

function sharedModules(r) {
  const ctx = { zones: ["module_zone"], counter: 0 };
  const common = `variable "zone_id" {
  type = string
}

variable "environment" {
  type    = string
  default = "prod"
}

variable "extra_skip_paths" {
  type    = map(string)
  default = {}
}

variable "runbook_url" {
  type    = string
  default = "https://runbooks.example.com/waf"
}

locals {
  zone_ids = { main = var.zone_id }
}
`;
  return {
    "modules/waf-zone/variables.tf": common,
    "modules/waf-zone/main.tf": cfFile(r, ctx, 6000).replaceAll("cloudflare_zone.module_zone.id", "var.zone_id"),
    "modules/edge/variables.tf": common,
    // A module that only calls another module: it matters because the one it calls does.
    "modules/edge/main.tf": `module "waf" {
  source = "../waf-zone"

  zone_id     = var.zone_id
  environment = var.environment
}
`,
  };
}

/**
 * (a) A Cloudflare-heavy tree: stacks of ~10 files, every file holds Cloudflare resources of every shape the
 * tool reads, plus local modules called with for_each/count, a few `.tf.json` files, heredocs and comments.
 */
export function cloudflareTreeFiles({ seed, files, bytes }) {
  const r = rng(seed);
  const out = new Map(Object.entries(sharedModules(r)));
  // Blocks overshoot their target a little less than main.tf undershoots it: aim 5 % high.
  const perFile = Math.max(2000, Math.floor((1.05 * bytes) / files));
  const filesPerStack = 10;
  const stacks = Math.max(1, Math.ceil((files - out.size) / filesPerStack));
  let made = out.size;
  // Names are unique across the tree (a counter shared by all stacks), so no two roots declare the same
  // address and every resource reaches the report.
  let counter = 0;
  for (let s = 0; s < stacks && made < files; s++) {
    const dir = `stacks/stack-${String(s).padStart(4, "0")}`;
    const ctx = { zones: Array.from({ length: r.int(2, 4) }, (_, i) => `${r.word()}_${s}_${i}`), counter };
    out.set(`${dir}/main.tf`, cfMainTf(r, ctx, "../../modules") + "\n" + cfFile(r, ctx, perFile / 2));
    made++;
    for (let f = 1; f < filesPerStack && made < files; f++) {
      if (r.chance(0.02)) out.set(`${dir}/exported-${f}.tf.json`, cfJsonFile(r, ctx));
      else out.set(`${dir}/${r.pick(["waf", "firewall", "page-rules", "rulesets", "zones", "security"])}-${f}.tf`, cfFile(r, ctx, perFile));
      made++;
    }
    counter = ctx.counter;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Monorepo: other providers, variables, outputs, modules; a few percent of the files touch Cloudflare.

const otherShapes = [
  (r, n) => `resource "aws_instance" "app_${n}" {
  ami           = data.aws_ami.ubuntu.id
  instance_type = "${r.pick(["t3.micro", "t3.large", "m5.xlarge"])}"
  subnet_id     = module.vpc.private_subnets[${r.int(0, 2)}]
  tags = {
    Name        = "app-${n}"
    Environment = var.environment
    Team        = "${r.word()}"
  }

  root_block_device {
    volume_size = ${r.int(8, 200)}
    encrypted   = true
  }
}
`,
  (r, n) => `resource "aws_s3_bucket" "data_${n}" {
  bucket = "\${var.prefix}-${r.word()}-${n}"
  tags   = local.common_tags
}

resource "aws_s3_bucket_policy" "data_${n}" {
  bucket = aws_s3_bucket.data_${n}.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Deny"
      Principal = "*"
      Action    = "s3:*"
      Resource  = ["\${aws_s3_bucket.data_${n}.arn}/*"]
      Condition = { Bool = { "aws:SecureTransport" = "false" } }
    }]
  })
}
`,
  (r, n) => `resource "google_compute_instance" "vm_${n}" {
  name         = "vm-${r.word()}-${n}"
  machine_type = "e2-${r.pick(["small", "medium", "standard-4"])}"
  zone         = "europe-west1-${r.pick(["b", "c", "d"])}"

  boot_disk {
    initialize_params {
      image = "debian-cloud/debian-12"
    }
  }

  network_interface {
    network = "default"
    access_config {}
  }

  metadata_startup_script = <<-EOT
    #!/bin/bash
    echo "hello from \${var.environment}" > /etc/motd
  EOT
}
`,
  (r, n) => `resource "azurerm_storage_account" "sa_${n}" {
  name                     = "sa${r.hex(10)}"
  resource_group_name      = azurerm_resource_group.main.name
  location                 = var.location
  account_tier             = "Standard"
  account_replication_type = "${r.pick(["LRS", "GRS"])}"
}
`,
  (r, n) => `# ${r.word()} settings
variable "setting_${n}" {
  type        = ${r.pick(["string", "number", "bool", "list(string)"])}
  description = "Setting ${n} for the ${r.word()} service"
  default     = ${r.pick(['"x"', "3", "true", "[]", "null"])}
}
`,
  (r, n) => `output "out_${n}" {
  value       = ${r.pick([`aws_instance.app_${n}.id`, `"\${var.prefix}-${n}"`, `local.common_tags`])}
  description = "Output ${n}"
}
`,
  (r, n) => `resource "kubernetes_deployment" "svc_${n}" {
  metadata {
    name      = "svc-${n}"
    namespace = var.namespace
    labels    = { app = "svc-${n}" }
  }
  spec {
    replicas = ${r.int(1, 5)}
    selector {
      match_labels = { app = "svc-${n}" }
    }
    template {
      metadata {
        labels = { app = "svc-${n}" }
      }
      spec {
        container {
          name  = "app"
          image = "registry.example.com/${r.word()}:\${var.image_tag}"
          port {
            container_port = ${r.pick([80, 8080, 3000])}
          }
        }
      }
    }
  }
}
`,
  (r, n) => `locals {
  common_tags_${n} = merge(var.tags, { Service = "${r.word()}", Index = "${n}" })
  names_${n}       = [for i in range(${r.int(2, 6)}) : format("${r.word()}-%02d", i)]
}
`,
];

function otherFile(r, targetBytes, counter) {
  const parts = [];
  let size = 0;
  while (size < targetBytes) {
    const text = r.pick(otherShapes)(r, counter.n++);
    parts.push(text);
    size += text.length + 1;
  }
  return parts.join("\n");
}

/**
 * (b) A monorepo: services of ~10 files. About `cfShare` of the files touch Cloudflare: a `cloudflare.tf` in
 * some services, and a shared `modules/cdn` that only calls `modules/cf-waf` (which has the Cloudflare
 * resources), called by other services whose own files never mention Cloudflare.
 */
export function monorepoFiles({ seed, files, bytes, cfShare = 0.03 }) {
  const r = rng(seed);
  const out = new Map();
  const perFile = Math.max(1500, Math.floor((1.04 * bytes) / files));
  const counter = { n: 0 };
  const cfCtx = { zones: ["mono"], counter: 0 };
  // Shared modules.
  out.set("modules/vpc/main.tf", otherFile(r, perFile, counter));
  out.set("modules/vpc/variables.tf", `variable "cidr" {\n  type = string\n}\n`);
  out.set("modules/cf-waf/main.tf", cfFile(r, cfCtx, perFile).replaceAll("cloudflare_zone.mono.id", "var.zone_id"));
  out.set("modules/cf-waf/variables.tf", `variable "zone_id" {\n  type = string\n}\n\nvariable "environment" {\n  type    = string\n  default = "prod"\n}\n\nvariable "extra_skip_paths" {\n  type    = map(string)\n  default = {}\n}\n\nvariable "runbook_url" {\n  type    = string\n  default = "https://runbooks.example.com/waf"\n}\n\nlocals {\n  zone_ids = { main = var.zone_id }\n}\n`);
  out.set("modules/cdn/main.tf", `# Only calls the WAF module: it matters because the module it calls does.\nmodule "waf" {\n  source = "../cf-waf"\n\n  zone_id = var.zone_id\n}\n`);
  out.set("modules/cdn/variables.tf", `variable "zone_id" {\n  type = string\n}\n`);
  const cfTarget = Math.round(files * cfShare);
  let cfMade = 1;
  let made = out.size;
  let svc = 0;
  while (made < files) {
    const dir = `services/svc-${String(svc++).padStart(4, "0")}`;
    const n = Math.min(10, files - made);
    // A service's Cloudflare file (or its call of the CDN module) counts once; about cfShare of all files.
    const wantCf = cfMade < cfTarget && r.chance((cfTarget * 1.1) / (files / 10));
    const callsCdn = !wantCf && cfMade < cfTarget && r.chance(0.1);
    const sZones = [`z${svc}`];
    for (let f = 0; f < n; f++) {
      let text;
      let name;
      if (f === 0) {
        name = "main.tf";
        text = `terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
  }
  backend "s3" {
    bucket = "tf-state-${r.hex(6)}"
    key    = "${dir}/terraform.tfstate"
    region = "eu-west-1"
  }
}

module "vpc" {
  source = "../../modules/vpc"
  cidr   = "10.${r.int(0, 255)}.0.0/16"
}

module "eks" {
  source  = "terraform-aws-modules/eks/aws"
  version = "~> 20.0"

  cluster_name = "eks-${svc}"
}
${callsCdn ? `\nmodule "cdn" {\n  source  = "../../modules/cdn"\n  zone_id = var.zone_id\n}\n` : ""}
variable "environment" {
  type    = string
  default = "prod"
}

variable "zone_id" {
  type    = string
  default = "${r.hex(32)}"
}
` + otherFile(r, perFile / 2, counter);
        if (callsCdn) cfMade++;
      } else if (wantCf && f === 1) {
        name = "cloudflare.tf";
        const ctx = { zones: sZones, counter: cfCtx.counter };
        text =
          `resource "cloudflare_zone" "${sZones[0]}" {\n  account_id = "${r.hex(32)}"\n  zone       = "svc${svc}.example.com"\n}\n\nvariable "extra_skip_paths" {\n  type    = map(string)\n  default = {}\n}\n\nvariable "runbook_url" {\n  type    = string\n  default = "https://runbooks.example.com"\n}\n\nlocals {\n  zone_ids = { main = cloudflare_zone.${sZones[0]}.id }\n}\n\n` +
          cfFile(r, ctx, perFile);
        cfCtx.counter = ctx.counter;
        cfMade++;
      } else {
        name = `${r.pick(["compute", "storage", "network", "iam", "k8s", "variables", "outputs", "data"])}-${f}.tf`;
        text = otherFile(r, perFile, counter);
      }
      out.set(`${dir}/${name}`, text);
      made++;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Writing trees, with a manifest so an unchanged tree is reused.

function manifestMatches(dir, params) {
  const file = path.join(dir, ".bench-manifest.json");
  if (!existsSync(file)) return false;
  try {
    return JSON.stringify(JSON.parse(readFileSync(file, "utf8")).params) === JSON.stringify(params);
  } catch {
    return false;
  }
}

/** Writes the tree unless the same generator, seed and sizes already produced it; returns {files, bytes}. */
export function ensureTree(dir, kind, params) {
  const full = { kind, version: GENERATOR_VERSION, ...params };
  if (manifestMatches(dir, full)) return { ...JSON.parse(readFileSync(path.join(dir, ".bench-manifest.json"), "utf8")).stats, reused: true };
  rmSync(dir, { recursive: true, force: true });
  const files = kind === "cloudflare" ? cloudflareTreeFiles(params) : monorepoFiles(params);
  let bytes = 0;
  for (const [rel, text] of files) {
    const abs = path.join(dir, rel);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    bytes += Buffer.byteLength(text);
  }
  const stats = { files: files.size, bytes };
  writeFileSync(path.join(dir, ".bench-manifest.json"), JSON.stringify({ params: full, stats }, null, 2));
  return { ...stats, reused: false };
}

// ---------------------------------------------------------------------------------------------------
// State files (v4), written as Terraform does (two-space indentation), streamed so size is unbounded.

const STATE_TYPES = [
  ["cloudflare_filter", 4],
  ["cloudflare_firewall_rule", 4],
  ["cloudflare_page_rule", 2],
  ["cloudflare_ruleset", 2],
  ["cloudflare_waf_rule", 2],
  ["cloudflare_waf_group", 1],
  ["cloudflare_waf_override", 1],
  ["cloudflare_record", 6],
  ["cloudflare_access_rule", 2],
  ["aws_instance", 4],
  ["aws_s3_bucket", 3],
];

function stateResource(r, i) {
  const type = weighted(r, STATE_TYPES);
  const zone = `${r.hex(32)}`;
  const keyed = r.chance(0.3);
  const count = keyed ? r.int(2, 4) : 1;
  const instances = [];
  for (let k = 0; k < count; k++) {
    const attrs = { id: r.hex(32), zone_id: zone };
    if (type === "cloudflare_ruleset") {
      attrs.phase = "http_request_firewall_managed";
      attrs.kind = "zone";
      attrs.rules = Array.from({ length: r.int(4, 12) }, () => ({
        action: "execute",
        action_parameters: [{ id: MANAGED_RULESET, overrides: [{ rules: [{ id: r.hex(32), action: "log", enabled: true }], categories: [] }] }],
        expression: `(http.host eq "${r.word()}.example.com")`,
        description: `rule ${r.word()}`,
        enabled: true,
      }));
    } else if (type === "cloudflare_filter") {
      attrs.expression = `(http.request.uri.path contains "/${r.word()}/${r.word()}" and ip.src in {192.0.2.${r.int(1, 254)}})`;
      attrs.description = `filter ${i}`;
      attrs.paused = false;
    } else if (type === "cloudflare_firewall_rule") {
      attrs.filter_id = r.hex(32);
      attrs.action = r.pick(["bypass", "block", "challenge"]);
      attrs.products = ["waf"];
      attrs.priority = r.int(1, 1000);
    } else if (type === "cloudflare_page_rule") {
      attrs.target = `*${r.word()}.example.com/${r.word()}/*`;
      attrs.actions = [{ waf: r.pick(["on", "off"]), security_level: "medium", disable_security: false, cache_key_fields: [], minify: [] }];
      attrs.priority = r.int(1, 50);
    } else if (type.startsWith("cloudflare_waf")) {
      attrs.rule_id = r.pick(WAF_RULE_IDS);
      attrs.group_id = r.pick(GROUP_IDS);
      attrs.package_id = r.pick(PACKAGE_IDS);
      attrs.mode = r.pick(["on", "off", "simulate", "disable"]);
    } else {
      attrs.tags = { Name: `${type}-${i}`, Team: r.word() };
      attrs.arn = `arn:aws:service:eu-west-1:123456789012:${type}/${r.hex(16)}`;
      attrs.user_data = r.hex(r.int(200, 1200));
    }
    instances.push({
      ...(keyed ? { index_key: r.chance(0.5) ? k : `${r.word()}-${k}` } : {}),
      schema_version: 1,
      attributes: attrs,
      sensitive_attributes: [],
      private: Buffer.from(r.hex(40)).toString("base64"),
      dependencies: [],
    });
  }
  const inModule = r.chance(0.4);
  return {
    ...(inModule ? { module: `module.stack_${r.int(0, 40)}${r.chance(0.5) ? `["${r.word()}"]` : ""}` } : {}),
    mode: "managed",
    type,
    name: `r${i}`,
    provider: type.startsWith("aws") ? 'provider["registry.terraform.io/hashicorp/aws"]' : 'provider["registry.terraform.io/cloudflare/cloudflare"]',
    instances,
  };
}

/** Writes a v4 state of about `bytes` bytes (reused when unchanged). */
export async function ensureState(file, { seed, bytes }) {
  const params = { kind: "state", version: GENERATOR_VERSION, seed, bytes };
  const manifest = file + ".manifest.json";
  if (existsSync(manifest) && existsSync(file)) {
    try {
      const m = JSON.parse(readFileSync(manifest, "utf8"));
      if (JSON.stringify(m.params) === JSON.stringify(params)) return { ...m.stats, reused: true };
    } catch {
      /* regenerate */
    }
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const r = rng(seed);
  const out = createWriteStream(file);
  const write = (s) => (out.write(s) ? Promise.resolve() : new Promise((res) => out.once("drain", res)));
  let written = 0;
  const head = `{\n  "version": 4,\n  "terraform_version": "1.5.7",\n  "serial": ${r.int(1, 9999)},\n  "lineage": "${r.hex(8)}-${r.hex(4)}-${r.hex(4)}-${r.hex(4)}-${r.hex(12)}",\n  "outputs": {},\n  "resources": [\n`;
  await write(head);
  written += head.length;
  let i = 0;
  let buf = "";
  while (written < bytes - 200) {
    const text = (i ? ",\n" : "") + JSON.stringify(stateResource(r, i), null, 2).replace(/^/gm, "    ");
    buf += text;
    written += Buffer.byteLength(text);
    i++;
    if (buf.length > 1 << 20) {
      await write(buf);
      buf = "";
    }
  }
  await write(buf + "\n  ],\n  \"check_results\": null\n}\n");
  await new Promise((res, rej) => out.end((e) => (e ? rej(e) : res())));
  const stats = { resources: i, bytes: written };
  writeFileSync(manifest, JSON.stringify({ params, stats }, null, 2));
  return { ...stats, reused: false };
}

// ---------------------------------------------------------------------------------------------------
// Many instances: one small tree whose legacy resources expand to tens of thousands of state instances,
// the shape that made plan superlinear (issue 18 §4). Three shapes, same instance count:
//   "one"   one cloudflare_waf_rule under for_each (and one cloudflare_waf_group under count) in the root
//           module, all instances in one zone;
//   "dup"   a module called with for_each once per zone: every module instance declares the same
//           type.name (a package, a group under count, a rule under for_each), so the state holds the same
//           resource address in many module instances, across many zones;
//   "zones" one cloudflare_waf_rule under for_each whose instances spread over many zones.

const MANY_HEAD = `terraform {
  required_version = ">= 1.5.0"
  required_providers {
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 3.30"
    }
  }
}

provider "cloudflare" {}
`;

const stateInstance = (indexKey, attributes) => ({
  ...(indexKey === undefined ? {} : { index_key: indexKey }),
  schema_version: 0,
  attributes,
  sensitive_attributes: [],
  private: "bnVsbA==",
  dependencies: [],
});

const stateRes = (module, type, name, instances) => ({
  ...(module ? { module } : {}),
  mode: "managed",
  type,
  name,
  provider: 'provider["registry.terraform.io/cloudflare/cloudflare"]',
  instances,
});

/** Files ({rel: text}) and the state object of a many-instances corpus. */
export function manyInstancesCorpus({ seed, instances, shape }) {
  const r = rng(seed);
  const pkg = PACKAGE_IDS[0]; // the OWASP package (groups, package)
  const cfPkg = PACKAGE_IDS[1]; // the Cloudflare package (rules)
  const files = new Map();
  const resources = [];
  // Same-length keys, in sorted order (as Terraform writes instances, and so `terraform fmt` aligns the map).
  const ruleId = (i) => `1${String(i).padStart(7, "0")}`; // Cloudflare Managed Ruleset ids (1xxxxx and up)
  const mode = () => r.pick(["simulate", "disable", "block", "challenge"]);
  if (shape === "one" || shape === "zones") {
    const zoneCount = shape === "one" ? 1 : Math.max(2, Math.round(instances / 10));
    const zones = Array.from({ length: zoneCount }, () => r.hex(32));
    const groups = Math.max(1, Math.round(instances / 100));
    const rules = {};
    const ruleInstances = [];
    for (let i = 0; i < instances; i++) {
      const key = ruleId(i);
      const zone = zones[i % zoneCount];
      const m = mode();
      rules[key] = { zone, mode: m };
      ruleInstances.push(stateInstance(key, { id: key, rule_id: key, zone_id: zone, package_id: cfPkg, group_id: GROUP_IDS[i % GROUP_IDS.length], mode: m }));
    }
    // The rule map is data the root reads (a tfvars-style JSON file), as large for_each maps usually are.
    files.set("rules.auto.tfvars.json", JSON.stringify({ waf_rules: rules }, null, 2) + "\n");
    files.set(
      "main.tf",
      `${MANY_HEAD}
variable "waf_rules" {
  type = map(object({
    zone = string
    mode = string
  }))
}

variable "zone_id" {
  type    = string
  default = "${zones[0]}"
}

resource "cloudflare_waf_rule" "rules" {
  for_each = var.waf_rules

  zone_id = each.value.zone
  rule_id = each.key
  mode    = each.value.mode
}

resource "cloudflare_waf_group" "groups" {
  count = ${groups}

  zone_id    = var.zone_id
  group_id   = element([${GROUP_IDS.map((g) => `"${g}"`).join(", ")}], count.index)
  package_id = "${pkg}"
  mode       = "on"
}
`,
    );
    resources.push(stateRes(null, "cloudflare_waf_group", "groups", Array.from({ length: groups }, (_, i) => stateInstance(i, { id: `${GROUP_IDS[i % GROUP_IDS.length]}`, group_id: GROUP_IDS[i % GROUP_IDS.length], zone_id: zones[0], package_id: pkg, mode: "on" }))));
    resources.push(stateRes(null, "cloudflare_waf_rule", "rules", ruleInstances));
  } else if (shape === "dup") {
    const perModule = 10; // rules per module instance; with the package and two groups, 13 instances
    const sites = Math.max(1, Math.round(instances / (perModule + 3)));
    const siteKeys = Array.from({ length: sites }, (_, i) => `site-${String(i).padStart(5, "0")}`);
    const zones = siteKeys.map(() => r.hex(32));
    files.set("sites.auto.tfvars.json", JSON.stringify({ sites: Object.fromEntries(siteKeys.map((k, i) => [k, zones[i]])) }, null, 2) + "\n");
    files.set(
      "main.tf",
      `${MANY_HEAD}
variable "sites" {
  type = map(string)
}

# One WAF module per zone: the same legacy resources in every module instance.
module "site" {
  source   = "./modules/site-waf"
  for_each = var.sites

  zone_id = each.value
}
`,
    );
    const ruleKeys = Array.from({ length: perModule }, (_, i) => ruleId(i));
    files.set(
      "modules/site-waf/main.tf",
      `variable "zone_id" {
  type = string
}

resource "cloudflare_waf_package" "owasp" {
  zone_id     = var.zone_id
  package_id  = "${pkg}"
  sensitivity = "medium"
  action_mode = "simulate"
}

resource "cloudflare_waf_group" "groups" {
  count = 2

  zone_id    = var.zone_id
  group_id   = element([${GROUP_IDS.map((g) => `"${g}"`).join(", ")}], count.index)
  package_id = "${pkg}"
  mode       = "on"
}

resource "cloudflare_waf_rule" "rules" {
  for_each = {
${ruleKeys.map((k) => `    "${k}" = "${mode()}"`).join("\n")}
  }

  zone_id = var.zone_id
  rule_id = each.key
  mode    = each.value
}
`,
    );
    // State order: by module, then type, then name (as Terraform writes it).
    siteKeys.forEach((k, i) => {
      const module = `module.site["${k}"]`;
      const zone = zones[i];
      resources.push(stateRes(module, "cloudflare_waf_group", "groups", [0, 1].map((g) => stateInstance(g, { id: GROUP_IDS[g], group_id: GROUP_IDS[g], zone_id: zone, package_id: pkg, mode: "on" }))));
      resources.push(stateRes(module, "cloudflare_waf_package", "owasp", [stateInstance(undefined, { id: pkg, package_id: pkg, zone_id: zone, sensitivity: "medium", action_mode: "simulate" })]));
      resources.push(stateRes(module, "cloudflare_waf_rule", "rules", ruleKeys.map((rk) => stateInstance(rk, { id: rk, rule_id: rk, zone_id: zone, package_id: cfPkg, group_id: GROUP_IDS[0], mode: "simulate" }))));
    });
  } else throw new Error(`unknown many-instances shape ${shape}`);
  const state = {
    version: 4,
    terraform_version: "1.5.7",
    serial: r.int(1, 9999),
    lineage: `${r.hex(8)}-${r.hex(4)}-${r.hex(4)}-${r.hex(4)}-${r.hex(12)}`,
    outputs: {},
    resources,
    check_results: null,
  };
  return { files, state };
}

/** Writes a many-instances tree with its terraform.tfstate (reused when unchanged). */
export function ensureManyInstances(dir, params) {
  const full = { kind: "many-instances", version: GENERATOR_VERSION, ...params };
  if (manifestMatches(dir, full)) {
    ownRepository(dir);
    return { ...JSON.parse(readFileSync(path.join(dir, ".bench-manifest.json"), "utf8")).stats, reused: true };
  }
  rmSync(dir, { recursive: true, force: true });
  const { files, state } = manyInstancesCorpus(params);
  files.set("terraform.tfstate", JSON.stringify(state, null, 2) + "\n");
  let bytes = 0;
  for (const [rel, text] of files) {
    const abs = path.join(dir, rel);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    bytes += Buffer.byteLength(text);
  }
  const instances = state.resources.reduce((n, res) => n + res.instances.length, 0);
  const stats = { files: files.size, bytes, instances, stateBytes: Buffer.byteLength(files.get("terraform.tfstate")) };
  writeFileSync(path.join(dir, ".bench-manifest.json"), JSON.stringify({ params: full, stats }, null, 2));
  ownRepository(dir);
  return { ...stats, reused: false };
}

/**
 * The tree is a repository of its own, as a user's would be. A plan for one root looks for other roots calling
 * the same module in the repository around it (src/estate/module-callers.ts): under .bench/ that was this
 * project, whose testdata it parsed on every run (plan/scan 3.7x CPU instead of 1.1x on the duplicated shape).
 */
function ownRepository(dir) {
  if (existsSync(path.join(dir, ".git"))) return;
  const r = spawnSync("git", ["init", "-q", dir], { stdio: "ignore" });
  if (r.status !== 0) mkdirSync(path.join(dir, ".git"), { recursive: true });
}
