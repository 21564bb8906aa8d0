// Resource-level matching of state entries. A legacy block in the configuration stands for every instance
// `terraform state list` prints for it (`x`, `x[0]`, `x["k"]`, and each instance of every enclosing module),
// so the migration removes and checks state by *resource*, never by the instance strings a plan happened
// to know: an instance created after the plan (or planned without state) must still be found.
import { configAddressOf, parseAddress } from "./address.js";

/** The resource a `state list` line belongs to: its address with every instance key dropped; null if not an address. */
export function resourceOfInstance(address: string): string | null {
  try {
    return configAddressOf(parseAddress(address));
  } catch {
    return null;
  }
}

/**
 * The lines of `stateList` that are instances of one of `resources` (config addresses such as
 * `module.waf.cloudflare_waf_group.g`), in the order `state list` printed them.
 */
export function instancesOfResources(stateList: readonly string[], resources: Iterable<string>): string[] {
  const wanted = new Set(resources);
  return stateList.filter((line) => {
    const resource = resourceOfInstance(line);
    return resource !== null && wanted.has(resource);
  });
}

/**
 * The resources to look for in state: every legacy block's config address (one per module path that
 * instantiates its file) and the resources of the instances state was known to hold.
 */
export function legacyResourceSet(blockConfigAddresses: Iterable<string>, knownInstances: Iterable<string>): string[] {
  const out = new Set(blockConfigAddresses);
  // Callers pass state's instances and the plan's removals, mostly the same addresses: parse each once.
  for (const a of new Set(knownInstances)) {
    const r = resourceOfInstance(a);
    if (r !== null) out.add(r);
  }
  return [...out].sort();
}
