/** JSON pointer escaping (RFC 6901), for naming places in documents in messages. */
export const escapeToken = (token: string) => token.replace(/~/g, "~0").replace(/\//g, "~1");

export const pointerOf = (...tokens: Array<string | number>) =>
  `#/${tokens.map((t) => escapeToken(String(t))).join("/")}`;

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** A local `$ref` (`#/components/…`) followed, at most 32 hops; anything else is returned as it is. */
export function deref(root: Record<string, unknown>, value: unknown): unknown {
  for (let hops = 0; hops < 32 && isRecord(value) && typeof value.$ref === "string"; hops++) {
    const ref = value.$ref;
    if (!ref.startsWith("#/")) return value;
    let node: unknown = root;
    for (const token of ref.slice(2).split("/")) {
      const key = decodeURIComponent(token).replace(/~1/g, "/").replace(/~0/g, "~");
      node = isRecord(node) || Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined;
    }
    value = node;
  }
  return value;
}
