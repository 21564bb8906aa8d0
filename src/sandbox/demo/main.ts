#!/usr/bin/env node
// `npm run demo`: a whole migration, narrated, in a temporary sandbox: a legacy estate created by the real
// terraform on provider 3.35.0, the CI gate failing, the zones migrated on the simulated service, the plan
// and its ruleset, `apply --yes`, the provider upgraded to 4.52.8, and terraform saying "No changes".
// Every step checks its own outcome; the first unexpected one stops the demo with the command's output.

import { mkdtempSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeFileAtomicSync } from "../fs-sync.js";
import { SAMPLE_ZONES } from "../sample-account.js";
import { sandboxDown, sandboxUp, type SandboxEnv } from "../sandbox.js";
import { estateFiles, PROVIDER_AFTER, PROVIDER_BEFORE, versionsTf } from "./estate.js";
import { run, type Ran } from "./exec.js";

const TOOL = fileURLToPath(new URL("../../cli/main.js", import.meta.url));
const TERRAFORM = process.env.CF_DEMO_TERRAFORM ?? "terraform";
const STEPS = 8;

class StepFailed extends Error {
  constructor(
    message: string,
    readonly ran?: Ran,
  ) {
    super(message);
  }
}

const out = (line = ""): void => void process.stdout.write(`${line}\n`);
const detail = (line: string): void => out(`      ${line}`);
let stepNumber = 0;
function step(title: string): void {
  stepNumber++;
  out(`[${stepNumber}/${STEPS}] ${title}`);
}

function expectCode(ran: Ran, codes: number[], why: string): Ran {
  if (ran.code === null || !codes.includes(ran.code)) throw new StepFailed(`${ran.command} exited ${ran.code ?? "by a signal"}: ${why}`, ran);
  return ran;
}

/** The first line of the output that matches, trimmed; a step that cannot show its evidence fails. */
function line(ran: Ran, pattern: RegExp): string {
  const found = `${ran.stdout}\n${ran.stderr}`.split("\n").find((l) => pattern.test(l));
  if (found === undefined) throw new StepFailed(`${ran.command}: expected a line matching ${pattern}`, ran);
  return found.trim();
}

async function main(): Promise<number> {
  const keep = process.argv.includes("--keep");
  const started = Date.now();
  const base = mkdtempSync(join(tmpdir(), "cf-waf-migrate-demo-"));
  const box = join(base, "sandbox");
  const estate = join(base, "estate");
  out("cf-waf-migrate demo: a WAF migration end to end, against a simulated Cloudflare (nothing leaves this machine)");
  let failed = true;
  try {
    const up = await sandboxUp(box, { versions: [PROVIDER_BEFORE, PROVIDER_AFTER] });
    const env = commandEnv(up.env);
    out(`sandbox ${box}: provider double ${PROVIDER_BEFORE} and ${PROVIDER_AFTER}, simulated API at ${up.env.CLOUDFLARE_BASE_URL}`);
    out();
    const tf = (args: string[]) => run(TERRAFORM, args, { cwd: estate, env, label: `terraform ${args.join(" ")}` });
    const tool = (args: string[]) => run(process.execPath, [TOOL, ...args], { cwd: estate, env, label: `cf-waf-migrate ${args.join(" ")}` });
    const zones = [SAMPLE_ZONES.shop, SAMPLE_ZONES.bank];

    step(`A legacy estate in ${estate}`);
    for (const [file, text] of Object.entries(estateFiles())) {
      mkdirSync(dirname(join(estate, file)), { recursive: true });
      writeFileAtomicSync(join(estate, file), text);
    }
    detail(`zones ${zones.map((z) => `${z.name} (${z.plan})`).join(", ")}; module "waf" with for_each (OWASP package, a WordPress group off)`);
    detail(`a firewall rule that bypasses the WAF for uptime monitoring, a Page Rule with WAF off for ${SAMPLE_ZONES.shop.name}/admin/*`);

    step(`terraform init && terraform apply, Cloudflare provider ${PROVIDER_BEFORE}`);
    expectCode(await tf(["init", "-input=false", "-no-color"]), [0], "init failed");
    const apply = expectCode(await tf(["apply", "-auto-approve", "-input=false", "-no-color"]), [0], "apply failed");
    detail(line(apply, /^Apply complete!/));

    step(`cf-waf-migrate gate . --target-provider ${PROVIDER_AFTER}: the upgrade is blocked while legacy resources remain`);
    const gate = expectCode(await tool(["gate", ".", "--target-provider", PROVIDER_AFTER, "--format", "text"]), [1], "the gate should fail (exit 1) on this estate");
    detail(line(gate, /^GATE FAILED/));
    detail(`exit ${gate.code}`);

    step("cf-waf-migrate api migrate --mode pending --yes, on the simulated service (CLOUDFLARE_BASE_URL)");
    const configs: string[] = [];
    const rulesetIds: string[] = [];
    for (const zone of zones) {
      const configFile = join(base, `config-${zone.name}.json`);
      expectCode(await tool(["api", "config", "--zone", zone.id, "--output", configFile]), [0], "could not read the zone's new WAF configuration");
      expectCode(await tool(["api", "migrate", "--zone", zone.id, "--mode", "pending", "--yes", "--config-json", configFile, "--poll-interval", "1"]), [0], "the migration did not finish");
      const entry = expectCode(await tool(["api", "entrypoint", "--zone", zone.id, "--format", "json"]), [0], "no entry point ruleset after the migration");
      const info = JSON.parse(entry.stdout) as { rulesetId: string; rules: number };
      detail(`${zone.name}: migrated; entry point ruleset ${info.rulesetId} with ${info.rules} rules; the previous WAF's API is now retired for it`);
      configs.push("--config-json", `${zone.id}=${configFile}`);
      rulesetIds.push("--ruleset-id", `${zone.id}=${info.rulesetId}`);
    }

    step("cf-waf-migrate plan . --state … --config-json … --ruleset-id … --out-dir migration/");
    const stateFile = join(base, "state.json");
    const pulled = expectCode(await tf(["state", "pull"]), [0], "state pull failed");
    writeFileAtomicSync(stateFile, pulled.stdout);
    const migration = join(base, "migration");
    const plan = expectCode(await tool(["plan", ".", "--state", stateFile, ...configs, ...rulesetIds, "--out-dir", migration, "--format", "text"]), [0], "plan failed");
    detail(line(plan, /wrote .*ruleset\.tf/).replace(/^cf-waf-migrate: /, "").replaceAll(`${base}/`, ""));

    step("ruleset.tf in place; cf-waf-migrate apply . rehearses on a throwaway copy, then apply . --yes (import, check, state rm, remove the legacy blocks, final plan)");
    writeFileAtomicSync(join(estate, "cf-waf-migrate-ruleset.tf"), readFileSync(join(migration, "ruleset.tf"), "utf8"));
    const rehearsed = expectCode(await tool(["apply", ".", ...rulesetIds]), [0], "the dry run's rehearsal did not pass");
    detail(line(rehearsed, /Rehearsal passed/));
    const applied = expectCode(await tool(["apply", ".", ...rulesetIds, "--yes"]), [0], "apply --yes failed");
    for (const l of `${applied.stdout}\n${applied.stderr}`.split("\n").filter((l) => /^✓ \d\./.test(l))) detail(l.trim());

    step(`provider constraint ${PROVIDER_BEFORE} -> ${PROVIDER_AFTER}; terraform init -upgrade`);
    writeFileAtomicSync(join(estate, "versions.tf"), versionsTf(PROVIDER_AFTER));
    const upgraded = expectCode(await tf(["init", "-upgrade", "-input=false", "-no-color"]), [0], "init -upgrade failed");
    detail(line(upgraded, /Installed cloudflare\/cloudflare v/));
    const gateAfter = expectCode(await tool(["gate", ".", "--target-provider", PROVIDER_AFTER, "--format", "text"]), [0], "the gate should pass once the legacy resources are gone");
    detail(`cf-waf-migrate gate: exit ${gateAfter.code}`);

    step(`terraform plan -detailed-exitcode, Cloudflare provider ${PROVIDER_AFTER}`);
    const final = expectCode(await tf(["plan", "-detailed-exitcode", "-input=false", "-no-color"]), [0], "the plan after the upgrade is not clean");
    detail(line(final, /^No changes\./));
    out();
    out(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s (load average ${loadavg()[0]!.toFixed(2)} on ${cpus().length} CPUs).`);
    failed = false;
    return 0;
  } catch (e) {
    out();
    out(`demo failed at step ${stepNumber}/${STEPS}: ${(e as Error).message}`);
    const ran = (e as StepFailed).ran;
    if (ran) {
      const tail = (s: string) => s.trimEnd().split("\n").slice(-40).map((l) => `  | ${l}`).join("\n");
      if (ran.stdout.trim()) out(`stdout:\n${tail(ran.stdout)}`);
      if (ran.stderr.trim()) out(`stderr:\n${tail(ran.stderr)}`);
    }
    return 1;
  } finally {
    await sandboxDown(box).catch(() => undefined);
    if (keep || failed) out(`files kept in ${base}`);
    else rmSync(base, { recursive: true, force: true });
  }
}

/** The user's environment without anything that would steer terraform or the tool elsewhere, plus the sandbox's. */
function commandEnv(sandbox: SandboxEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(TF_|CLOUDFLARE_|CF_DOUBLE_)/.test(k)) continue;
    env[k] = v;
  }
  return { ...env, ...sandbox, TF_IN_AUTOMATION: "1", NO_COLOR: "1" };
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`demo: ${(e as Error).message}\n`);
    process.exit(1);
  },
);
