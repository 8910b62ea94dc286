import type { AuthScheme, Command, CredentialVariables, Manifest, Requirement } from "./manifest.js";
import {
  oneValue,
  read,
  SCHEME_KINDS,
  schemeKindOf,
  signsAws,
  type SchemeKind,
  type SchemeShape,
  type Source,
} from "./schemes/index.js";

export { read, type Source };

/**
 * Which credential values a command sends, read from the environment variables its schemes declare
 * (docs/generated-cli.md, "Credentials"): the first of the command's alternatives whose schemes all have their
 * variables set. Values never leave this process except in the request; knownSecrets lists them for redaction.
 */

/** Every variable a scheme reads, in a fixed order. */
export function variablesOf(scheme: AuthScheme): string[] {
  const order: Array<keyof CredentialVariables> = [
    "value",
    "username",
    "password",
    "accessToken",
    "clientId",
    "clientSecret",
    "refreshToken",
    "accessKeyId",
    "secretAccessKey",
    "sessionToken",
  ];
  return order.map((role) => scheme.env[role]).filter((v): v is string => !!v);
}

/** Whether a scheme is of one kind (schemes/index.ts). */
const isKind = (scheme: SchemeShape, kind: SchemeKind) => schemeKindOf(scheme) === kind;
const isOAuth = (scheme: AuthScheme) => isKind(scheme, SCHEME_KINDS.oauth);
const isBasic = (scheme: AuthScheme) => isKind(scheme, SCHEME_KINDS["http-basic"]);
/** AWS Signature Version 4: the CLI signs each request with the scheme's keys (sigv4.ts). */
export const isSigV4 = signsAws;

/** A scheme's value as its variables hold it now. */
export const sourceOf = (scheme: AuthScheme): Source | undefined =>
  (schemeKindOf(scheme) ?? { source: oneValue }).source(scheme);

/** What a scheme needs set, in words: "ACME_TOKEN", or for OAuth 2 each way the CLI can get a token. */
export const needsOf = (scheme: AuthScheme): string => schemeKindOf(scheme)?.needs(scheme) ?? scheme.env.value ?? "";

export interface Chosen {
  requirement: Requirement;
  sources: Record<string, Source>;
}

/** The first alternative of a command whose schemes all have their variables set. */
export function chooseAlternative(manifest: Manifest, command: Command): Chosen | undefined {
  for (const requirement of command.auth) {
    const sources: Record<string, Source> = {};
    let complete = true;
    for (const name of Object.keys(requirement)) {
      const scheme = manifest.auth.schemes[name];
      const source = scheme ? sourceOf(scheme) : undefined;
      if (!source) {
        complete = false;
        break;
      }
      sources[name] = source;
    }
    if (complete) return { requirement, sources };
  }
  return undefined;
}

/** One alternative in words: the variables of each of its schemes, joined by "and". */
export function alternativeNeeds(manifest: Pick<Manifest, "auth">, requirement: Requirement): string {
  return Object.keys(requirement)
    .map((name) => manifest.auth.schemes[name])
    .filter((s): s is AuthScheme => !!s)
    .map((s) => (Object.keys(requirement).length > 1 && isOAuth(s) ? `(${needsOf(s)})` : needsOf(s)))
    .join(" and ");
}

/** Credential values this process obtained (OAuth access and refresh tokens), redacted like those from the environment. */
const obtained = new Set<string>();

export function rememberSecret(value: string): void {
  obtained.add(value);
}

/**
 * Every credential value this process knows: each variable of each scheme the CLI declares, the `user:password` pair
 * a Basic scheme sends (whose base64 form a server may echo), and tokens obtained at run time.
 */
export function knownSecrets(manifest: Manifest): string[] {
  const values = new Set<string>(obtained);
  for (const scheme of Object.values(manifest.auth.schemes)) {
    for (const name of variablesOf(scheme)) {
      const value = read(name);
      // A client id is an identifier rather than a secret, but it travels beside the secret and is never data.
      if (value) values.add(value);
    }
    if (isBasic(scheme)) {
      const source = sourceOf(scheme);
      if (source?.kind === "basic") values.add(`${source.username}:${source.password}`);
    }
  }
  return [...values];
}
