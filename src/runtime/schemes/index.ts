import { apiKey } from "./api-key.js";
import { awsSigV4 } from "./aws-sigv4.js";
import { httpBasic } from "./http-basic.js";
import { httpBearer } from "./http-bearer.js";
import { httpToken } from "./http-token.js";
import type { SchemeKind, SchemeShape } from "./kind.js";
import { oauth } from "./oauth.js";

/**
 * The kinds of security scheme the CLI sends (docs/generated-cli.md, "Credentials"): adding one is a module beside
 * these and its line here. A request signature comes first: it decides how a scheme of any type is sent.
 */
export const SCHEME_KINDS = {
  "aws-sigv4": awsSigV4,
  "api-key": apiKey,
  "http-bearer": httpBearer,
  "http-basic": httpBasic,
  "http-token": httpToken,
  oauth,
} satisfies Record<string, SchemeKind>;

const ORDER = Object.values(SCHEME_KINDS);

/** A scheme's kind; undefined for one the CLI cannot send in any way (mutual TLS, an unknown type). */
export const schemeKindOf = (scheme: SchemeShape): SchemeKind | undefined => ORDER.find((kind) => kind.is(scheme));

export type { Placement, SchemeKind, SchemeShape, Source } from "./kind.js";
export { oneValue, read } from "./kind.js";
export { signsAws } from "./aws-sigv4.js";
