// How many state addresses a removal list holds, said the way step 5 removes them: resources and legacy
// data source instances apart, so a zone's "Remove from state" and step 5's list can be compared (a plan
// said "Remove from state (2)" for its zone while step 5 removed 3 addresses, the third a data source).
import { parseAddress } from "./address.js";

export interface RemovalCount {
  resources: number;
  dataSources: number;
}

export function countRemovals(addresses: readonly string[]): RemovalCount {
  const dataSources = addresses.filter(isDataAddress).length;
  return { resources: addresses.length - dataSources, dataSources };
}

/** A data source instance's address; one that does not parse counts as a resource. */
function isDataAddress(address: string): boolean {
  try {
    return parseAddress(address).mode === "data";
  } catch {
    return false;
  }
}

/** "2 resources", "2 resources and 1 data source", "1 data source". */
export function removalCountText(addresses: readonly string[]): string {
  const { resources, dataSources } = countRemovals(addresses);
  const r = `${resources} resource${resources === 1 ? "" : "s"}`;
  const d = `${dataSources} data source${dataSources === 1 ? "" : "s"}`;
  if (dataSources === 0) return r;
  if (resources === 0) return d;
  return `${r} and ${d}`;
}
