// The one directory a plan's patches apply from: the deepest directory holding the root module and every
// file a patch touches.
import { describe, expect, it } from "vitest";
import { commonAncestor, patchBase, patchPath, relativePath } from "../../src/core/patch-base.js";
import { includePattern } from "../../src/plan/migrate-script.js";

describe("patch base", () => {
  it("is the root itself when every edited file is inside it", () => {
    const base = patchBase("/r/infra/prod", ["/r/infra/prod/main.tf", "/r/infra/prod/modules/waf/main.tf"]);
    expect(base).toEqual({ absolute: "/r/infra/prod", fromRoot: "." });
    expect(patchPath(base, "/r/infra/prod/modules/waf/main.tf")).toBe("modules/waf/main.tf");
  });

  it("goes up to the module a root calls with ../../ (examples/complete), and no patch path holds ..", () => {
    const base = patchBase("/m/examples/complete", ["/m/main.tf"]);
    expect(base).toEqual({ absolute: "/m", fromRoot: "../.." });
    expect(patchPath(base, "/m/main.tf")).toBe("main.tf");
    const sibling = patchBase("/r/envs/prod", ["/r/modules/waf/main.tf", "/r/envs/prod/waf.tf"]);
    expect(sibling.fromRoot).toBe("../..");
    expect(patchPath(sibling, "/r/envs/prod/waf.tf")).toBe("envs/prod/waf.tf");
  });

  it("compares whole path segments", () => {
    expect(commonAncestor(["/a/bc", "/a/b"])).toBe("/a");
    expect(commonAncestor(["/a/b/../c", "/a/c/d"])).toBe("/a/c");
    expect(commonAncestor(["/x", "/y"])).toBe("/");
    expect(relativePath("/a/b", "/a/b")).toBe("");
    expect(relativePath("/a/b/c", "/a/d")).toBe("../../d");
  });

  it("a path becomes a literal --include pattern", () => {
    expect(includePattern("modules/waf/main.tf")).toBe("modules/waf/main.tf");
    expect(includePattern("w[1]/*?.tf")).toBe("w\\[1\\]/\\*\\?.tf");
  });
});
