/**
 * Whether a parsed JSON value nests deeper than `max`. `JSON.parse` accepts any depth, but code that walks a value
 * recursively (schema validation, canonical hashing, rendering) overflows the stack on a few thousand levels: untrusted
 * JSON is measured with this first, which walks without recursion.
 */
export function nestedDeeper(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (!node || typeof node !== "object") continue;
    if (depth >= max) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Plans, results, reference solutions and cache records are documents of a few levels; deeper is not theirs. */
export const MAX_DOCUMENT_DEPTH = 64;
