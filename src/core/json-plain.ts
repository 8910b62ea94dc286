/**
 * `value` as `JSON.parse(JSON.stringify(value))` would give it, or undefined when that cannot be told without parsing.
 * Objects that hold properties stringify drops (undefined, functions, symbols) are replaced by copies without them,
 * built key by key in order (deleting the properties instead would leave V8 objects slow to read for every later
 * stage); array items of that kind become null, as do non-finite numbers, and -0 becomes 0. Everything else is
 * changed in place and kept. Anything whose JSON is not its own data — a class instance, a Date, a Map, an object with
 * toJSON or without a prototype, a bigint — gives undefined, as does nesting too deep to walk (part of the value may be
 * cleaned already, which changes nothing stringify writes). Objects reached twice stay shared, where parsing would copy
 * them: readers must not mutate.
 *
 * A task hands its dependants the value it wrote this way instead of their parsing the file again
 * (pipeline/io.ts): the walk reads the value and allocates only for the objects it must copy, a fraction of parsing.
 */
export function toPlainJson(value: unknown): object | undefined {
  if (value === null || typeof value !== "object") return undefined;
  try {
    const plain = plainNode(value);
    return plain === REFUSED ? undefined : plain;
  } catch (error) {
    // Deeper than the stack: the file is parsed instead (JSON.parse takes any depth).
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

const REFUSED = Symbol("refused");

/** The node, or the copy to put in its place; REFUSED when its JSON is not its own data. Recursive: walks fastest. */
function plainNode(node: object): object | typeof REFUSED {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const item: unknown = node[i];
      if (item !== null && typeof item === "object") {
        const plain = plainNode(item);
        if (plain === REFUSED) return REFUSED;
        if (plain !== item) node[i] = plain;
      } else if (typeof item === "number") {
        if (!Number.isFinite(item)) node[i] = null;
        else if (item === 0) node[i] = 0;
      } else if (typeof item === "bigint") return REFUSED;
      else if (item === undefined || typeof item === "function" || typeof item === "symbol") node[i] = null;
    }
    return node;
  }
  if (Object.getPrototypeOf(node) !== Object.prototype) return REFUSED;
  const record = node as Record<string, unknown>;
  if (typeof record.toJSON === "function") return REFUSED;
  const keys = Object.keys(record);
  let drops = false;
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!;
    const item = record[key];
    if (item !== null && typeof item === "object") {
      const plain = plainNode(item);
      if (plain === REFUSED) return REFUSED;
      if (plain !== item) put(record, key, plain);
    } else if (typeof item === "number") {
      if (!Number.isFinite(item)) put(record, key, null);
      else if (item === 0) put(record, key, 0);
    } else if (typeof item === "bigint") return REFUSED;
    else if (item === undefined || typeof item === "function" || typeof item === "symbol") drops = true;
  }
  if (!drops) return record;
  const copy: Record<string, unknown> = {};
  for (const key of keys) {
    const item = record[key];
    if (item !== undefined && typeof item !== "function" && typeof item !== "symbol") put(copy, key, item);
  }
  return copy;
}

/** Sets an own property as parsing would: "__proto__" too is a property there, where assigning it sets the prototype. */
function put(record: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}
