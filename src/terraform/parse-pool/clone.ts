// A value to bytes and back, exactly, for values that cross between threads (the directory probes, the root
// workers and their spill files): v8's structured serialization (shared references, undefined, -0 and
// array holes kept) plus which objects had no prototype (the configuration's records, core/null-proto.ts),
// restored on the way back. A value holding anything else with a prototype of its own (a Map, a class
// instance, a function) is not serialized (`null`): the caller keeps it in memory.
import { deserialize, serialize } from "node:v8";

export function toBytes(value: unknown): Buffer | null {
  const bare: number[] = [];
  let plain = true;
  walk(value, (o, index) => {
    const proto = Object.getPrototypeOf(o) as unknown;
    if (proto === null) bare.push(index);
    else if (proto !== Object.prototype && proto !== Array.prototype) plain = false;
    return plain;
  });
  if (!plain) return null;
  try {
    return serialize({ value, bare });
  } catch {
    return null;
  }
}

export function fromBytes<T>(buf: Buffer): T {
  const { value, bare } = deserialize(buf) as { value: T; bare: number[] };
  const restore = new Set(bare);
  walk(value, (o, index) => {
    if (restore.has(index)) Object.setPrototypeOf(o, null);
    return true;
  });
  return value;
}

/** Every object once, in one deterministic order (depth first, own enumerable values in key order). */
function walk(root: unknown, visit: (o: object, index: number) => boolean): void {
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  let index = 0;
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "function") {
      visit(v, index++);
      continue;
    }
    if (v === null || typeof v !== "object" || seen.has(v)) continue;
    seen.add(v);
    if (!visit(v, index++)) return;
    const values = Object.values(v);
    for (let i = values.length - 1; i >= 0; i--) stack.push(values[i]);
  }
}
