// The provider double's schemas (transcribed by scripts/sandbox-schemas.mjs) and core's feature table
// (scripts/ruleset-features.mjs) are read from the provider's source by two different scripts: for every
// served version and every construct the generator can emit, they must say the same thing, or the double
// would accept (or reject) what the tool's version rules predict otherwise.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GENERATOR_CONSTRUCTS, hasConstruct } from "../../src/core/ruleset-features.js";
import type { BlockSchema, ProviderSchemaFile } from "../../src/sandbox/schemas/types.js";
import { servedVersions } from "../../src/sandbox/mirror.js";

function schemaOf(version: string): ProviderSchemaFile {
  return JSON.parse(readFileSync(new URL(`../../src/sandbox/schemas/${version}.json`, import.meta.url), "utf8")) as ProviderSchemaFile;
}

/** Whether a configuration may write the construct (a block, or an attribute that is not computed only). */
function configurable(block: BlockSchema, construct: string): boolean {
  const [head, ...rest] = construct.split(".");
  const nested = block.blocks[head!];
  if (nested) return rest.length === 0 || configurable(nested.block, rest.join("."));
  const attr = block.attributes[head!];
  if (attr === undefined || !(attr.optional === true || attr.required === true)) return false;
  if (rest.length === 0) return true;
  // 5.x: a nested attribute holds the rest of the path.
  return attr.nested !== undefined && configurable({ attributes: attr.nested.attributes, blocks: {} }, rest.join("."));
}



describe("the double's schemas agree with the feature table", () => {
  it("serves the matrix's versions", () => {
    for (const v of ["2.26.0", "2.26.1", "3.4.0", "3.9.1", "3.12.0", "3.13.0", "3.20.0", "3.35.0", "4.52.8", "5.22.0"]) expect(servedVersions()).toContain(v);
  });

  for (const version of servedVersions()) {
    it(`cloudflare_ruleset at ${version}`, () => {
      const schema = schemaOf(version);
      expect(schema.tag).toBe(`v${version}`);
      expect(schema.protocol ?? 5).toBe(Number(version.split(".")[0]) >= 5 ? 6 : 5);
      const ruleset = schema.resources.cloudflare_ruleset!.block;
      for (const construct of Object.keys(GENERATOR_CONSTRUCTS)) {
        if (construct === "import") continue; // not a schema entry
        expect(configurable(ruleset, construct), `${construct} at ${version}`).toBe(hasConstruct(construct, version));
      }
    });
  }
});
