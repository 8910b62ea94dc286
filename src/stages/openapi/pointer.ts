/** JSON pointer escaping (RFC 6901), for naming places in documents in messages. */
export const escapeToken = (token: string) => token.replace(/~/g, "~0").replace(/\//g, "~1");

export const pointerOf = (...tokens: Array<string | number>) =>
  `#/${tokens.map((t) => escapeToken(String(t))).join("/")}`;
