// Maps keyed by the user's input (resource names, labels, attribute names, module and instance keys, zone
// ids, variable and output names). A plain `{}` inherits `toString`, `constructor`, `__proto__`, … from
// Object.prototype, so `out[name] ?? []` finds a function for a resource named `toString`, and assigning
// `out["__proto__"]` replaces the prototype instead of storing anything. These helpers give maps without a
// prototype and lookups that only see own properties. Pure: no I/O.

/**
 * An empty object with no prototype: every key, `__proto__` included, is an ordinary own property.
 * Made by dropping the prototype of `{}`, not by `Object.create(null)`: V8 keeps the former in fast mode
 * (about 70 bytes for a small object) while the latter starts as a hash table (about 290 bytes), which
 * for the hundreds of thousands of bodies of a big tree is most of the heap.
 */
export function inputRecord<T>(): Record<string, T> {
  return Object.setPrototypeOf({}, null) as Record<string, T>;
}

/** `obj[key]` when `key` is the object's own property, else undefined (never an inherited member). */
export function ownValue<T>(obj: Readonly<Record<string, T>> | null | undefined, key: string): T | undefined {
  return obj !== null && obj !== undefined && Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/**
 * Drops the prototype of every object in a parsed JSON value, in place (arrays keep theirs), so the
 * result can be indexed by input keys. JSON.parse already stores a `"__proto__"` member as an own property.
 */
export function withoutPrototypes<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== "object") continue;
    if (Array.isArray(v)) {
      for (const item of v) if (item !== null && typeof item === "object") stack.push(item);
      continue;
    }
    if (Object.getPrototypeOf(v) !== null) Object.setPrototypeOf(v, null);
    for (const key in v) {
      const item = (v as Record<string, unknown>)[key];
      if (item !== null && typeof item === "object") stack.push(item);
    }
  }
  return value;
}
