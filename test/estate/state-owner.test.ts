import path from "node:path";
import { describe, expect, it } from "vitest";
import type { EstateRoot } from "../../src/estate/instances.js";
import { parseStateArg, rootNamed, stateOwner, workspaceOf } from "../../src/estate/state-owner.js";
import type { ModuleNode } from "../../src/terraform/config/modules.js";

const BASE = path.resolve("/repo");
// Only `node !== null` matters to ownership: a stand-in node marks a root that has configuration.
const node = {} as ModuleNode;
const root = (p: string): EstateRoot => ({ path: p, dir: path.join(BASE, p), node });
const ROOTS = [root("live"), root("live/prod"), root("live/staging"), root("modules/waf/examples/basic")];

const owner = (file: string, roots = ROOTS, explicit: EstateRoot | null = null) => {
  const arg = parseStateArg(file, () => false);
  const r = stateOwner(arg, file === "-" ? null : path.join(BASE, file), roots, explicit);
  return r.ok ? { root: r.owner.root.path, workspace: r.owner.workspace } : { error: r.error.message, file: r.error.file };
};

describe("state ownership", () => {
  it("gives a state to the deepest root containing it", () => {
    expect(owner("live/prod/terraform.tfstate")).toEqual({ root: "live/prod", workspace: "default" });
    expect(owner("live/terraform.tfstate")).toEqual({ root: "live", workspace: "default" });
    // live/prod-eu is not inside live/prod: the deepest containing root is live.
    expect(owner("live/prod-eu/terraform.tfstate")).toEqual({ root: "live", workspace: "default" });
    expect(owner("modules/waf/examples/basic/states/pulled.json")).toEqual({ root: "modules/waf/examples/basic", workspace: "default" });
  });

  it("reads the workspace from terraform.tfstate.d/<ws>/ under the root, and only there", () => {
    expect(owner("live/staging/terraform.tfstate.d/eu/terraform.tfstate")).toEqual({ root: "live/staging", workspace: "eu" });
    expect(owner("live/staging/terraform.tfstate.d/us-east-1/terraform.tfstate")).toEqual({ root: "live/staging", workspace: "us-east-1" });
    expect(owner("live/staging/backups/terraform.tfstate.d/eu/terraform.tfstate")).toEqual({ root: "live/staging", workspace: "default" });
    expect(workspaceOf(path.join(BASE, "live/staging/terraform.tfstate.d/terraform.tfstate"), path.join(BASE, "live/staging"))).toBe("default");
  });

  it("refuses a state outside every root, and stdin, when there are several roots, naming the fix", () => {
    const outside = owner("states/prod.tfstate");
    expect(outside).toMatchObject({ file: "states/prod.tfstate" });
    expect((outside as { error: string }).error).toContain("--state ROOT=states/prod.tfstate");
    const stdin = owner("-");
    expect(stdin).toMatchObject({ file: "<stdin>" });
    expect((stdin as { error: string }).error).toContain("--state ROOT=-");
  });

  it("gives everything to the only root when there is one", () => {
    expect(owner("states/prod.tfstate", [root("live/prod")])).toEqual({ root: "live/prod", workspace: "default" });
    expect(owner("-", [root("live/prod")])).toEqual({ root: "live/prod", workspace: "default" });
  });

  it("honours ROOT=FILE, with the workspace still read from the path", () => {
    const isRoot = (name: string) => rootNamed(name, ROOTS, BASE, BASE) !== null;
    const arg = parseStateArg("live/prod=/tmp/pulled/prod.tfstate", isRoot);
    expect(arg).toEqual({ root: "live/prod", file: "/tmp/pulled/prod.tfstate" });
    const explicit = rootNamed(arg.root!, ROOTS, BASE, BASE);
    const r = stateOwner(arg, arg.file, ROOTS, explicit);
    expect(r.ok && r.owner.root.path).toBe("live/prod");
    const ws = stateOwner({ root: "live/staging", file: "x" }, path.join(BASE, "live/staging/terraform.tfstate.d/eu/terraform.tfstate"), ROOTS, root("live/staging"));
    expect(ws.ok && ws.owner.workspace).toBe("eu");
  });

  it("keeps a file name that merely contains = as a file", () => {
    expect(parseStateArg("states/a=b.tfstate", () => false)).toEqual({ root: null, file: "states/a=b.tfstate" });
    expect(parseStateArg("=x", () => true)).toEqual({ root: null, file: "=x" });
  });
});
