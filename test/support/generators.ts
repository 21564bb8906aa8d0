// The property tests' entry to the generators and properties shared with the fuzz run
// (scripts/fuzz/generators.mjs, scripts/fuzz/properties.mjs): the same properties, run here against src/
// with a fixed seed and a small number of cases (`npm run fuzz` runs 100,000+ against dist/).
import { createRequire } from "node:module";
import { parse as hcl2json } from "@cdktn/hcl2json";
import * as generators from "../../scripts/fuzz/generators.mjs";
import * as properties from "../../scripts/fuzz/properties.mjs";
import { formatAddress, formatModulePath, parseAddress, quoteHclString } from "../../src/core/address.js";
import { evaluateExpression, pageRuleMatches } from "../../src/core/rule-expression-eval.js";
import { pageRuleTargetToExpression } from "../../src/core/page-rule-pattern.js";
import { createSecretRedactor } from "../../src/core/secret-redaction.js";
import { analyze } from "../../src/core/analyze.js";
import * as parse from "../../src/terraform/hcl/parse.js";
import { scanStructure } from "../../src/terraform/hcl/structure.js";
import { parseStateText } from "../../src/terraform/state/read.js";
import { loadWorkspace } from "../../src/terraform/inventory/workspace.js";
import { templateCostOverrun } from "../../src/terraform/hcl/template-cost.js";
import { parseWithRuntime } from "../../src/terraform/parse-pool/runtime.js";
import { evaluate } from "../../src/core/tf-expr/evaluate.js";
import { parseExpression } from "../../src/core/tf-expr/parse.js";
import { MAX_EVALUATION_STEPS } from "../../src/core/tf-expr/values.js";
import { ROOT } from "./cli.js";

export { generators, properties };

export type Property = (typeof properties.PROPERTIES)[number];

function loadHcl2Parser(): { parseToObject: (text: string) => [unknown, unknown] } | undefined {
  try {
    return createRequire(import.meta.url)("hcl2-parser");
  } catch {
    return undefined;
  }
}

/** The code under test, from src/. */
export const srcImpl = {
  parseConfigFile: (file: string, text: string) => parse.parseConfigFile(file, text),
  parseConfigFileSelective: (parse as Record<string, unknown>).parseConfigFileSelective as ((file: string, text: string, opts: unknown) => Promise<unknown>) | undefined,
  scanStructure,
  hcl2json,
  hcl2parser: loadHcl2Parser(),
  parseStateText,
  formatAddress,
  parseAddress,
  formatModulePath,
  quoteHclString,
  pageRuleTargetToExpression,
  evaluateExpression,
  pageRuleMatches,
  loadWorkspace,
  createSecretRedactor,
  analyze,
  templateCostOverrun,
  parseWithRuntime,
  evaluate,
  parseExpression,
  maxEvaluationSteps: MAX_EVALUATION_STEPS,
};

let fixtures: Awaited<ReturnType<typeof properties.loadFixtures>> | null = null;

/** Runs one shared property for `numRuns` cases with a fixed seed; fails with the shrunk input. */
export async function checkProperty(prop: Property, opts: { numRuns: number; seed: number }): Promise<Map<string, number>> {
  fixtures ??= await properties.loadFixtures(ROOT);
  const result = await properties.runProperty(prop, { impl: srcImpl as never, fixtures }, opts);
  if (result.failure) {
    const f = result.failure;
    const shown = prop.show ? prop.show(f.counterexample) : f.counterexample;
    const err = f.error as Error;
    const cause = err instanceof properties.Crash ? `\n${(err as unknown as { stackOfCause: string }).stackOfCause}` : "";
    throw new Error(`${prop.name}: ${err?.message ?? String(err)}${cause}\nminimal input (seed ${f.seed}): ${JSON.stringify(shown, null, 2)}`);
  }
  return result.stats;
}
