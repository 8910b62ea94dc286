import { pushTo } from "../../core/group.js";
import type { Operation, OperationModel, Parameter, SecurityScheme } from "../openapi/model.js";
import { sendRank } from "../../runtime/auth.js";
import { SIGV4_PARAMETER } from "../../runtime/sigv4.js";
import type { AuthScheme, AwsSigning, CredentialVariables, Requirement } from "../../runtime/manifest.js";
import { defaultExplode, defaultStyle, type Style } from "../../runtime/serialize.js";
import { plainText } from "./plain-text.js";

/** How requests go on the wire: each parameter's serialization, and the credential each command sends. */

/**
 * A parameter's `style` and `explode` as its flag keeps them: only where they differ from OpenAPI's defaults (form in
 * query and cookie, simple in path and header; explode for form), and `explode` only for arrays and objects, whose
 * serialization it changes — so a document that says nothing special yields the same flags as before.
 */
export function flagStyle(p: Parameter): { style?: Style; explode?: boolean } {
  const structured = p.type === "array" || p.type === "object";
  return {
    ...(p.style !== defaultStyle(p.in) ? { style: p.style } : {}),
    ...(structured && p.explode !== defaultExplode(p.style) ? { explode: p.explode } : {}),
  };
}

/** What a command sends: the alternatives it authenticates with, whether the API also takes none, and why. */
export interface AuthChoice {
  auth: Requirement[];
  optional: boolean;
  /**
   * Said in the build's warnings (once for all operations it applies to): alternatives made one because the
   * parameters need them together, or a requirement the CLI cannot send.
   */
  warning?: string;
}

/**
 * The apiKey schemes of the document that supply a parameter: same place, same name (a header's in any case); and an
 * AWS Signature Version 4 scheme supplies the signature's own headers, which AWS's descriptions declare as parameters
 * of every operation (`X-Amz-Date`, `X-Amz-Security-Token`, `X-Amz-Signature`, …).
 */
export function suppliedBy(p: Pick<Parameter, "in" | "name">, schemes: Record<string, SecurityScheme>): string[] {
  const same = (a: string, b: string) => (p.in === "query" ? a === b : a.toLowerCase() === b.toLowerCase());
  return Object.entries(schemes)
    .filter(
      ([, s]) =>
        (s.type === "apiKey" && s.in === p.in && !!s.name && same(s.name, p.name)) ||
        (s.signature?.kind === "aws-sigv4" && (p.in === "header" || p.in === "query") && SIGV4_PARAMETER.test(p.name)),
    )
    .map(([name]) => name)
    .sort();
}

/** Where a scheme's credential goes: two schemes with the same place cannot both be sent in one request. */
function placeOf(scheme: SecurityScheme | undefined): string | undefined {
  if (!scheme) return undefined;
  if (scheme.type === "apiKey")
    return scheme.in === "header" ? `header ${scheme.name?.toLowerCase()}` : `${scheme.in} ${scheme.name}`;
  return "header authorization";
}

/**
 * An AND requirement whose schemes compete for one place (Google's descriptions require `Oauth2` and `Oauth2c`
 * together: two tokens for one Authorization header) cannot be met as written; it is read as one alternative per
 * competing scheme, each with the rest of the requirement.
 */
function apart(requirement: Requirement, schemes: Record<string, SecurityScheme>): Requirement[] {
  const names = Object.keys(requirement);
  const byPlace = new Map<string, string[]>();
  for (const name of names) {
    const place = placeOf(schemes[name]);
    if (place) pushTo(byPlace, place, name);
  }
  const clash = [...byPlace.values()].find((group) => group.length > 1);
  if (!clash) return [requirement];
  return clash.flatMap((keep) =>
    apart(
      Object.fromEntries(names.filter((n) => n === keep || !clash.includes(n)).map((n) => [n, requirement[n]!])),
      schemes,
    ),
  );
}

/**
 * A command's security from its operation's (else the document's) requirements — alternatives, each needing all of
 * its schemes — as OpenAPI states it, with two corrections:
 * - where the operation's required parameters are what several schemes supply (Trello's `key` and `token`, listed as
 *   alternatives), only alternatives holding all of those schemes are kept, or else those schemes become one
 *   alternative: the API needs them together, whatever the list says;
 * - alternatives naming a scheme the CLI cannot send (mutualTLS, HTTP Digest, an undefined name) are left out;
 * - an AND requirement of schemes that go to the same place becomes one alternative per competing scheme.
 * An empty alternative (`{}`) makes the credential optional: sent when its variables are set, never demanded.
 */
export function authOf(
  op: Pick<Operation, "security" | "parameters">,
  model: Pick<OperationModel, "security" | "securitySchemes">,
  unstated = false,
): AuthChoice {
  const schemes = model.securitySchemes;
  // A document that declares schemes but never requires one (common: the author forgot `security`) still has them:
  // each is an optional alternative, sent when its variables are set and never demanded.
  const requirements = unstated
    ? [
        {},
        ...Object.keys(schemes)
          .sort()
          .map((name) => ({ [name]: [] })),
      ]
    : (op.security ?? model.security);
  let optional = requirements.some((r) => Object.keys(r).length === 0);
  const alternatives = requirements.filter((r) => Object.keys(r).length > 0).flatMap((r) => apart(r, schemes));
  let usable = alternatives.filter((r) => Object.keys(r).every((name) => sendRank(schemes[name]) !== undefined));
  const supplied = [...new Set(op.parameters.filter((p) => p.required).flatMap((p) => suppliedBy(p, schemes)))].sort();
  let warning: string | undefined;
  if (supplied.length) {
    const holding = usable.filter((r) => supplied.every((name) => name in r));
    if (holding.length) usable = holding;
    else {
      // The schemes the required parameters need join every alternative, which still needs its own: Apideck's
      // operations require `apiKey` (Authorization) and a header parameter that `applicationId` supplies.
      const scopes = (name: string) => alternatives.find((r) => name in r)?.[name] ?? [];
      const needed = Object.fromEntries(supplied.map((name) => [name, scopes(name)]));
      const joined = usable.map((r) => ({ ...r, ...needed }));
      if (optional || !joined.length) joined.unshift(needed);
      const key = (r: Record<string, string[]>) => Object.keys(r).sort().join(" ");
      usable = joined.filter((r, i) => joined.findIndex((o) => key(o) === key(r)) === i);
      if (supplied.length > 1 && !alternatives.some((r) => supplied.every((name) => name in r)))
        warning = `require the parameters of ${supplied.join(" and ")} together (the document lists them as alternatives); the CLI sends them together`;
    }
    optional = false;
  }
  if (!usable.length && alternatives.length && !optional) {
    const needed = [...new Set(alternatives.flatMap((r) => Object.keys(r)))];
    warning = `need ${needed.join(" or ")}, which the CLI cannot send (called without a credential)`;
  }
  return { auth: usable, optional, ...(warning ? { warning } : {}) };
}

/** Plain text of a description (stages/design/plain-text.ts) on one line, at most `max` characters. */
/** A sentence that only points elsewhere ("For more information", "See the docs:"): its link is gone in plain text. */
const POINTER = /^(for (more )?(info|information|details)|see( also)?|learn more|read more|more info(rmation)?)\b/i;

/**
 * A scheme's description as auth messages quote it (runtime/auth.ts: "The API says: …"): its whole sentences within
 * `max` characters, leaving out those that only point to a link, or nothing — never a cut-off fragment. Text with no
 * closing stop is a sentence when it is all there is and says something (four words or more).
 */
function plainDescription(text: string, max = 300): string {
  const flat = plainText(text).replace(/\s+/g, " ").trim();
  const sentences = flat.match(/[^.!?]+[.!?]+(?=\s|$)/g)?.map((s) => s.trim()) ?? [];
  const rest = flat.slice(sentences.join(" ").length).trim();
  if (!sentences.length && rest.split(" ").length >= 4 && !POINTER.test(rest) && rest.length <= max) return rest;
  let kept = "";
  for (const sentence of sentences) {
    if (POINTER.test(sentence)) continue;
    const next = kept ? `${kept} ${sentence}` : sentence;
    if (next.length > max) break;
    kept = next;
  }
  return kept;
}

/**
 * A scheme as capabilities.json and the manifest keep it: how to send it, the variables it reads, where an OAuth 2
 * client gets tokens, and its own description as plain text.
 */
export function planScheme(scheme: SecurityScheme, env: CredentialVariables, aws?: AwsSigning): AuthScheme {
  const { description, bearerFormat, flows, openIdConnectUrl, signature, ...rest } = scheme;
  const text = description ? plainDescription(description) : "";
  const { tokenUrl, refreshUrl } = oauthUrls(scheme);
  return {
    ...rest,
    ...(signature ? { signature: { kind: signature.kind, title: signature.title, by: signature.by } } : {}),
    ...(aws ? { aws } : {}),
    ...(bearerFormat ? { bearerFormat } : {}),
    ...(text ? { description: text } : {}),
    env,
    ...(tokenUrl ? { tokenUrl } : {}),
    ...(refreshUrl ? { refreshUrl } : {}),
    ...(openIdConnectUrl ? { openIdConnectUrl } : {}),
  };
}

/**
 * The token endpoints a client without a person can use: the client credentials flow's, and where a refresh token is
 * exchanged (a flow's refreshUrl, else its tokenUrl; the authorization code flow, then the password flow).
 */
export function oauthUrls(scheme: SecurityScheme): { tokenUrl?: string; refreshUrl?: string } {
  const flows = scheme.flows ?? {};
  const tokenUrl = flows.clientCredentials?.tokenUrl;
  // The client credentials grant issues no refresh token (RFC 6749 §4.4.3): only flows a person started refresh.
  const refreshUrl = [flows.authorizationCode, flows.password]
    .map((f) => f?.refreshUrl ?? f?.tokenUrl)
    .find((u) => !!u);
  return { ...(tokenUrl ? { tokenUrl } : {}), ...(refreshUrl ? { refreshUrl } : {}) };
}
