// The long-lived provider double terraform attaches to (src/sandbox/reattach.ts, provider/host.ts) and the
// harness's use of it: the reattach configuration go-plugin expects, one environment (account, credentials,
// trace) per socket, a host that outlives every terraform run (test mode: no Shutdown) and dies with its
// parent, and terraform's own lock-file checks kept where they would have shown.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderHost, PROVIDER_SOURCE } from "../../dist/sandbox/index.js";
import { ROOT } from "../support/cli.js";
import { tempDir } from "../support/workdir.js";
import { legacyZone, providerBlock, TERRAFORM, TerraformHarness } from "./harness.js";

const ZONE_OUTPUT = `
data "cloudflare_zone" "z" {
  name = "example.com"
}

output "plan" { value = data.cloudflare_zone.z.plan }
`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function gone(pid: number, ms = 10_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) if (!alive(pid)) return true;
  return false;
}

describe("ProviderHost", () => {
  it("answers go-plugin's reattach configuration: test mode, its own pid, the version's protocol, one socket per environment", async () => {
    const host = new ProviderHost(path.join(tempDir("cfwm-host-"), "s"));
    try {
      const v3 = JSON.parse(await host.reattachConfig("3.35.0", { A: "1" }));
      const config = v3[PROVIDER_SOURCE];
      expect(config).toMatchObject({ Protocol: "grpc", ProtocolVersion: 5, Pid: host.pid, Test: true, Addr: { Network: "unix" } });
      expect(existsSync(config.Addr.String)).toBe(true);
      expect(JSON.parse(await host.reattachConfig("5.22.0", { A: "1" }))[PROVIDER_SOURCE].ProtocolVersion).toBe(6);
      // The same environment shares a socket; another gets its own.
      expect(await host.reattachConfig("3.35.0", { A: "1" })).toBe(JSON.stringify(v3));
      expect(JSON.parse(await host.reattachConfig("3.35.0", { A: "2" }))[PROVIDER_SOURCE].Addr.String).not.toBe(config.Addr.String);
      await expect(host.reattachConfig("9.9.9", {})).rejects.toThrow(/9\.9\.9/);
    } finally {
      const pid = host.pid!;
      host.stop();
      expect(await gone(pid)).toBe(true);
    }
  });

  it("exits when the process that started it dies without stopping it (no orphan)", async () => {
    const script = `
      import { ProviderHost } from ${JSON.stringify(path.join(ROOT, "dist/sandbox/index.js"))};
      const host = new ProviderHost(${JSON.stringify(path.join(tempDir("cfwm-host-"), "s"))});
      await host.reattachConfig("3.35.0", {});
      process.stdout.write(String(host.pid));
      process.kill(process.pid, "SIGKILL");
    `;
    const hostPid = await new Promise<number>((resolve, reject) => {
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      child.on("error", reject);
      child.on("close", () => resolve(Number(out)));
    });
    expect(hostPid).toBeGreaterThan(0);
    expect(await gone(hostPid)).toBe(true);
  });
});

describe("a harness that reattaches", () => {
  let h: TerraformHarness;
  beforeAll(() => {
    h = new TerraformHarness(["3.35.0", "4.52.8"], TERRAFORM, { reattach: true });
  });
  afterAll(() => h?.teardown());

  it(
    "serves each root its own account and trace from one process that every terraform run leaves running",
    async () => {
      const a = h.root("a", { "main.tf": providerBlock("3.35.0") + ZONE_OUTPUT }, [legacyZone({ plan: "enterprise" })]);
      const b = h.root("b", { "main.tf": providerBlock("3.35.0") + ZONE_OUTPUT }, [legacyZone({ plan: "business" })]);
      for (const root of [a, b]) {
        root.env.CF_DOUBLE_LOG = path.join(root.accountDir, "trace.jsonl");
        expect((await root.tf("init", "-input=false")).code).toBe(0);
      }
      // Both at once, on one host.
      const [ra, rb] = await Promise.all([a.tf("apply", "-auto-approve", "-input=false"), b.tf("apply", "-auto-approve", "-input=false")]);
      expect(ra.stderr).toBe("");
      expect(rb.stderr).toBe("");
      expect(JSON.parse((await a.tf("output", "-json")).stdout).plan.value).toBe("enterprise");
      expect(JSON.parse((await b.tf("output", "-json")).stdout).plan.value).toBe("business");
      const pids = (root: typeof a) =>
        new Set(
          readFileSync(root.env.CF_DOUBLE_LOG!, "utf8")
            .trim()
            .split("\n")
            .map((l) => (JSON.parse(l) as { pid: number; rpc: string }))
            .filter((t) => t.rpc === "ReadDataSource")
            .map((t) => t.pid),
        );
      // The apply's reads came from one process, the same for both roots, and it did not stop.
      expect(pids(a).size).toBe(1);
      expect([...pids(a)]).toEqual([...pids(b)]);
      const host = [...pids(a)][0]!;
      expect(alive(host)).toBe(true);
      const again = await a.tf("plan", "-detailed-exitcode", "-input=false");
      expect(again.code, again.stderr).toBe(0);
      expect(alive(host)).toBe(true);
      // Without credentials in its environment the double refuses, as a plugin terraform started would.
      delete a.env.CLOUDFLARE_API_TOKEN;
      const refused = await a.tf("plan", "-input=false");
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("credentials are not set correctly");
    },
    300_000,
  );

  it(
    "leaves terraform's lock-file checks in place: a constraint changed without init, and a root never initialised, fail as without it",
    async () => {
      const root = h.root("upgrade", { "main.tf": providerBlock("3.35.0") + ZONE_OUTPUT }, [legacyZone()]);
      const uninitialised = await root.tf("plan", "-input=false");
      expect(uninitialised.code).toBe(1);
      expect(uninitialised.stderr).toContain("Inconsistent dependency lock file");
      expect((await root.tf("init", "-input=false")).code).toBe(0);
      expect((await root.tf("plan", "-input=false")).code).toBe(0);
      root.write("main.tf", root.read("main.tf").replace('"3.35.0"', '"4.52.8"'));
      const stale = await root.tf("plan", "-input=false");
      expect(stale.code).toBe(1);
      expect(stale.stderr).toContain("locked version selection 3.35.0 doesn't match the updated version constraints");
      expect((await root.tf("init", "-upgrade", "-input=false")).code).toBe(0);
      const upgraded = await root.tf("plan", "-input=false");
      expect(upgraded.stderr).toBe("");
      expect(upgraded.code).toBe(0);
    },
    300_000,
  );

  it(
    "does not attach a command whose global options move it elsewhere (-chdir): the other root's checks stay terraform's",
    async () => {
      const a = h.root("chdir-a", { "main.tf": providerBlock("3.35.0") + ZONE_OUTPUT }, [legacyZone()]);
      h.root("chdir-b", { "main.tf": providerBlock("3.35.0") + ZONE_OUTPUT }, [legacyZone()]);
      expect((await a.tf("init", "-input=false")).code).toBe(0);
      expect((await a.tf("plan", "-input=false")).code).toBe(0);
      // From a's directory, with a's environment (its lock file and data directory checked), terraform plans
      // b, which has no lock file.
      const other = await h.run(a.dir, ["-chdir=../chdir-b", "plan", "-no-color", "-input=false"], a.env);
      expect(other.code).toBe(1);
      expect(other.stderr).toContain("Inconsistent dependency lock file");
    },
    300_000,
  );
});
