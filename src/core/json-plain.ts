/**
 * `value` as `JSON.parse(JSON.stringify(value))` would give it, or undefined when that cannot be told without parsing.
 * Objects that hold properties stringify drops (undefined, functions, symbols) are replaced by copies without them,
 * built key by key in order (deleting the properties instead would leave V8 objects slow to read for every later
 * stage); array items of that kind become null, as do non-finite numbers, and -0 becomes 0. Everything else is
 * changed in place and kept. Anything whose JSON is not its own data — a class instance, a Date, a Map, an object with
 * toJSON or without a prototype, a bigint — gives undefined (part of the value may be cleaned already, which changes
 * nothing stringify writes). Objects reached twice stay shared, where parsing would copy them: readers must not mutate.
 *
 * A task hands its dependants the value it wrote this way instead of their parsing the file again
 * (pipeline/io.ts): the walk reads the value and allocates only for the objects it must copy, a fraction of parsing.
 */
export function toPlainJson(value: unknown): object | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const root: Record<string, unknown> = { value };
  // A node and where it sits, so a copy can take its place: three stacks, not an object per node.
  const nodes: object[] = [value];
  const parents: Array<Record<string, unknown> | unknown[]> = [root];
  const slots: Array<string | number> = ["value"];
  while (nodes.length) {
    const node = nodes.pop()!;
    const parent = parents.pop()!;
    const slot = slots.pop()!;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item: unknown = node[i];
        if (item !== null && typeof item === "object") {
          nodes.push(item);
          parents.push(node);
          slots.push(i);
        } else if (typeof item === "bigint") return undefined;
        else if (typeof item === "number") {
          if (!Number.isFinite(item)) node[i] = null;
          else if (item === 0) node[i] = 0;
        } else if (item === undefined || typeof item === "function" || typeof item === "symbol") node[i] = null;
      }
      continue;
    }
    if (Object.getPrototypeOf(node) !== Object.prototype) return undefined;
    let record = node as Record<string, unknown>;
    if (typeof record.toJSON === "function") return undefined;
    const keys = Object.keys(record);
    let drops = false;
    for (const key of keys) {
      const item = record[key];
      if (typeof item === "bigint") return undefined;
      if (item === undefined || typeof item === "function" || typeof item === "symbol") drops = true;
    }
    if (drops) {
      const copy: Record<string, unknown> = {};
      for (const key of keys) {
        const item = record[key];
        if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
        // Parsing makes "__proto__" an own property; assigning it would set the prototype.
        put(copy, key, item);
      }
      (parent as Record<string, unknown>)[slot] = record = copy;
    }
    for (const key of drops ? Object.keys(record) : keys) {
      const item = record[key];
      if (item !== null && typeof item === "object") {
        nodes.push(item);
        parents.push(record);
        slots.push(key);
      } else if (typeof item === "number") {
        if (!Number.isFinite(item)) put(record, key, null);
        else if (item === 0) put(record, key, 0);
      }
    }
  }
  return root.value as object;
}

/** Sets an own property as parsing would: "__proto__" too is a property there, where assigning it sets the prototype. */
function put(record: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}
