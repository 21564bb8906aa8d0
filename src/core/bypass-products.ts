// A firewall rule can bypass several legacy products at once (`products = ["waf", "uaBlock", "rateLimit"]`).
// The migration replaces only its WAF part with a skip rule: the firewall rule itself must stay, for the
// other products. Pure.
import { isWafBypass } from "./compat.js";
import { finding } from "./findings.js";
import type { Finding, FirewallRule } from "./model.js";

/** The products a WAF-bypassing firewall rule bypasses besides the WAF, in the order written. */
export function otherBypassedProducts(rule: FirewallRule): string[] {
  if (!isWafBypass(rule)) return [];
  return [...new Set(rule.products.filter((p) => p !== "waf"))];
}

export function otherProductsFindings(rule: FirewallRule, zoneId: string): Finding[] {
  const others = otherBypassedProducts(rule);
  if (others.length === 0) return [];
  return [
    finding(
      "FIREWALL_RULE_BYPASS_OTHER_PRODUCTS",
      `${rule.ref.address} also bypasses ${others.join(", ")}: the skip rule replaces only its WAF part, so the firewall rule stays for the other products (the migration never deletes it); remove "waf" from its products after migrating`,
      { ref: rule.ref, zoneId },
      { otherProducts: others },
    ),
  ];
}
