// The Go reference of the bench: HashiCorp's hclsyntax parsing a tree on 2 goroutines (hclparse/main.go).
// Built once into .bench/ when a Go toolchain is installed and the module github.com/hashicorp/hcl/v2 can be
// had (module cache, GOPROXY, or GOFLAGS=-mod=vendor); otherwise the bench prints why and skips the rows.
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const SRC = fileURLToPath(new URL("./hclparse/", import.meta.url));

/** { binary } when built (or already built from the same source), else { reason } in one line. */
export function ensureGoReference(benchDir) {
  const binary = path.join(benchDir, "hclparse");
  const source = path.join(SRC, "main.go");
  if (existsSync(binary) && statSync(binary).mtimeMs >= statSync(source).mtimeMs) return { binary };
  const go = spawnSync("go", ["version"], { encoding: "utf8" });
  if (go.error || go.status !== 0) return { reason: "no Go toolchain (apt-get install -y golang-go installs one)" };
  const env = { ...process.env, GOFLAGS: process.env.GOFLAGS ?? "-mod=mod" };
  const b = spawnSync("go", ["build", "-o", binary, "."], { cwd: SRC, env, encoding: "utf8", timeout: 300_000 });
  if (b.status === 0 && existsSync(binary)) return { binary };
  const why = `${b.stderr ?? ""}${b.error?.message ?? ""}`;
  const unreachable = /proxy\.golang\.org|dial tcp|no such host|GOPROXY|module lookup disabled/.test(why);
  return {
    reason: unreachable
      ? `${go.stdout.trim()} is installed, but the module github.com/hashicorp/hcl/v2 is neither in the module cache nor reachable (Go module proxy unreachable offline)`
      : `go build failed: ${why.trim().split("\n").slice(-1)[0]}`,
  };
}
