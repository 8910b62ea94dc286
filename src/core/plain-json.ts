/**
 * Whether `JSON.parse(JSON.stringify(value))` would give back a value no reader can tell from `value`: plain objects
 * (of Object.prototype) and arrays without holes, of strings, finite numbers other than -0, booleans and null — no
 * undefined member, no Date, Map, class instance or toJSON. Far cheaper than parsing the text. Walked with a stack of
 * its own: a description's models nest deeper than the call stack allows.
 */
export function isPlainJson(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    switch (typeof v) {
      case "string":
      case "boolean":
        continue;
      case "number":
        if (!Number.isFinite(v) || Object.is(v, -0)) return false;
        continue;
      case "object": {
        if (v === null) continue;
        if (Array.isArray(v)) {
          if (Object.getPrototypeOf(v) !== Array.prototype) return false;
          for (let i = 0; i < v.length; i++) {
            const item: unknown = v[i];
            // A hole reads as undefined too: JSON writes both as null.
            if (item === undefined) return false;
            if (item !== null && typeof item !== "string" && typeof item !== "boolean") stack.push(item);
          }
          continue;
        }
        // Symbol keys and non-enumerable members, which JSON leaves out, are no reader's business here.
        if (Object.getPrototypeOf(v) !== Object.prototype) return false;
        for (const key in v) {
          const item = (v as Record<string, unknown>)[key];
          if (item === undefined || key === "toJSON") return false;
          if (item !== null && typeof item !== "string" && typeof item !== "boolean") stack.push(item);
        }
        continue;
      }
      default:
        return false;
    }
  }
  return true;
}
