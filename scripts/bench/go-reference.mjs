// The Go reference of the bench: HashiCorp's hclsyntax parsing a tree on 2 goroutines (hclparse/main.go).
// Built once into .bench/ when a Go toolchain is installed and github.com/hashicorp/hcl/v2 can be had: from
// the module cache or GOPROXY (module mode, the version go.mod names), else from Debian's packaged source
// (`golang-github-hashicorp-hcl-v2-dev` puts it under /usr/share/gocode; built in GOPATH mode, the
// packaged version). Otherwise the bench prints why and skips the rows.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const SRC = fileURLToPath(new URL("./hclparse/", import.meta.url));
const DEBIAN_GOPATH = "/usr/share/gocode";
const INSTALL = "apt-get install -y golang-go golang-github-hashicorp-hcl-v2-dev";

/** { binary, source } when built (or already built from the same source), else { reason } in one line. */
export function ensureGoReference(benchDir) {
  const binary = path.join(benchDir, "hclparse");
  const stamp = `${binary}.source`;
  const main = path.join(SRC, "main.go");
  if (existsSync(binary) && existsSync(stamp) && statSync(binary).mtimeMs >= statSync(main).mtimeMs) return { binary, source: readFileSync(stamp, "utf8").trim() };
  const go = spawnSync("go", ["version"], { encoding: "utf8" });
  if (go.error || go.status !== 0) return { reason: `no Go toolchain (${INSTALL} installs one and HashiCorp's HCL from Debian's packages)` };
  const build = (env) => spawnSync("go", ["build", "-o", binary, "."], { cwd: SRC, env: { ...process.env, ...env }, encoding: "utf8", timeout: 300_000 });
  const done = (source) => {
    writeFileSync(stamp, `${source}\n`);
    return { binary, source };
  };
  const viaModules = build({ GOFLAGS: process.env.GOFLAGS ?? "-mod=mod" });
  if (viaModules.status === 0 && existsSync(binary)) return done(`hcl/v2 ${moduleVersion()} (Go modules), ${go.stdout.trim()}`);
  const packaged = path.join(DEBIAN_GOPATH, "src/github.com/hashicorp/hcl/v2");
  if (existsSync(packaged)) {
    const viaDebian = build({ GO111MODULE: "off", GOPATH: DEBIAN_GOPATH, GOFLAGS: "" });
    if (viaDebian.status === 0 && existsSync(binary)) return done(`hcl/v2 ${debianVersion() ?? "(version unknown)"} (Debian's golang-github-hashicorp-hcl-v2-dev), ${go.stdout.trim()}`);
    return { reason: `go build against Debian's HCL source failed: ${lastLine(viaDebian)}` };
  }
  const why = `${viaModules.stderr ?? ""}${viaModules.error?.message ?? ""}`;
  const unreachable = /proxy\.golang\.org|dial tcp|no such host|GOPROXY|module lookup disabled/.test(why);
  return {
    reason: unreachable
      ? `${go.stdout.trim()} is installed, but github.com/hashicorp/hcl/v2 is neither in the module cache, nor reachable (Go module proxy), nor installed from Debian (${INSTALL})`
      : `go build failed: ${lastLine(viaModules)}`,
  };
}

function lastLine(r) {
  return `${r.stderr ?? ""}${r.error?.message ?? ""}`.trim().split("\n").slice(-1)[0];
}

function moduleVersion() {
  return /github\.com\/hashicorp\/hcl\/v2 (v\S+)/.exec(readFileSync(path.join(SRC, "go.mod"), "utf8"))?.[1] ?? "";
}

function debianVersion() {
  const r = spawnSync("dpkg-query", ["-W", "-f=${Version}", "golang-github-hashicorp-hcl-v2-dev"], { encoding: "utf8" });
  return r.status === 0 && r.stdout.trim() ? r.stdout.trim() : null;
}
