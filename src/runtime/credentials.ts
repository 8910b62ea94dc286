import {
  httpSchemeOf,
  type AuthScheme,
  type Command,
  type CredentialVariables,
  type Manifest,
  type Requirement,
} from "./manifest.js";

/**
 * Which credential values a command sends, read from the environment variables its schemes declare
 * (docs/generated-cli.md, "Credentials"): the first of the command's alternatives whose schemes all have their
 * variables set. Values never leave this process except in the request; knownSecrets lists them for redaction.
 */

export const read = (name: string | undefined) => (name ? process.env[name] || undefined : undefined);

/** Where a scheme's value comes from right now; undefined when its variables are not set. */
export type Source =
  | { kind: "value"; value: string }
  | { kind: "basic"; username: string; password: string }
  | { kind: "aws"; accessKeyId: string; secretAccessKey: string; sessionToken?: string }
  | {
      kind: "oauth";
      accessToken?: string;
      client?: { id: string; secret: string };
      refresh?: { token: string; clientId?: string; clientSecret?: string };
    };

const isOAuth = (scheme: AuthScheme) => scheme.type === "oauth2" || scheme.type === "openIdConnect";
export const isBasic = (scheme: AuthScheme) => scheme.type === "http" && httpSchemeOf(scheme) === "basic";
/** AWS Signature Version 4: the CLI signs each request with the scheme's keys (sigv4.ts). */
export const isSigV4 = (scheme: Pick<AuthScheme, "signature">) => scheme.signature?.kind === "aws-sigv4";

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

/** Whether the CLI can obtain a token for an OAuth scheme with what is set (client credentials or a refresh token). */
const canObtain = (scheme: AuthScheme) => !!(scheme.tokenUrl || scheme.openIdConnectUrl);
const canRefresh = (scheme: AuthScheme) => !!(scheme.refreshUrl || scheme.openIdConnectUrl);

/** A scheme's value as its variables hold it now. */
export function sourceOf(scheme: AuthScheme): Source | undefined {
  const env = scheme.env;
  if (isOAuth(scheme)) {
    const accessToken = read(env.accessToken);
    const id = read(env.clientId);
    const secret = read(env.clientSecret);
    const refreshToken = read(env.refreshToken);
    const client = id && secret && canObtain(scheme) ? { id, secret } : undefined;
    const refresh =
      refreshToken && canRefresh(scheme)
        ? { token: refreshToken, ...(id ? { clientId: id } : {}), ...(secret ? { clientSecret: secret } : {}) }
        : undefined;
    if (!accessToken && !client && !refresh) return undefined;
    return {
      kind: "oauth",
      ...(accessToken ? { accessToken } : {}),
      ...(client ? { client } : {}),
      ...(refresh ? { refresh } : {}),
    };
  }
  if (isSigV4(scheme)) {
    const accessKeyId = read(env.accessKeyId);
    const secretAccessKey = read(env.secretAccessKey);
    const sessionToken = read(env.sessionToken);
    if (!accessKeyId || !secretAccessKey) return undefined;
    return { kind: "aws", accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
  }
  if (isBasic(scheme) && env.value) {
    // One variable holding `user:password` (RFC 7617: the user holds no colon); no colon is a user with no password.
    const pair = read(env.value);
    if (!pair) return undefined;
    const at = pair.indexOf(":");
    return { kind: "basic", username: at < 0 ? pair : pair.slice(0, at), password: at < 0 ? "" : pair.slice(at + 1) };
  }
  if (isBasic(scheme)) {
    const username = read(env.username);
    // RFC 7617 allows an empty password (Stripe's secret key is the user alone): the user is what must be set.
    return username ? { kind: "basic", username, password: read(env.password) ?? "" } : undefined;
  }
  const value = read(env.value);
  return value ? { kind: "value", value } : undefined;
}

/** What a scheme needs set, in words: "ACME_TOKEN", or for OAuth 2 each way the CLI can get a token. */
export function needsOf(scheme: AuthScheme): string {
  const env = scheme.env;
  if (isOAuth(scheme)) {
    const ways = [
      env.accessToken,
      env.clientId && env.clientSecret && canObtain(scheme) ? `${env.clientId} and ${env.clientSecret}` : undefined,
      env.refreshToken && canRefresh(scheme)
        ? `${env.refreshToken}${env.clientId ? ` (with ${env.clientId}${env.clientSecret ? `, and ${env.clientSecret} for a confidential client` : ""})` : ""}`
        : undefined,
    ].filter(Boolean);
    return ways.join(", or ");
  }
  if (isSigV4(scheme))
    return `${env.accessKeyId} and ${env.secretAccessKey}${env.sessionToken ? ` (and ${env.sessionToken} for temporary credentials)` : ""}`;
  if (isBasic(scheme)) return env.value ?? `${env.username} (and ${env.password}, unless the password is empty)`;
  return env.value ?? "";
}

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
