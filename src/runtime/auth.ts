import type { AuthScheme, Command, Manifest } from "./manifest.js";

/**
 * Credentials as the API takes them. The CLI holds one credential (its environment variable) and sends it the way the
 * command's security scheme says: an apiKey in its header, query parameter or cookie; HTTP Bearer (also an OAuth 2 or
 * OpenID Connect access token); HTTP Basic (the value is `<user>:<password>`, base64-encoded by the CLI); another
 * token-style HTTP scheme as `Authorization: <scheme> <value>`.
 */

/** HTTP schemes that need a challenge-response exchange or a key pair: one static value cannot answer them. */
const INTERACTIVE_HTTP = new Set(["digest", "negotiate", "ntlm", "hoba", "mutual", "scram-sha-1", "scram-sha-256", "vapid", "concealed", "privatetoken"]);

/** Whether the CLI can send a scheme with its one credential; 0 is best (the value is the credential itself). */
export function sendRank(scheme: AuthScheme | undefined): number | undefined {
  if (!scheme) return undefined;
  if (scheme.type === "apiKey") return scheme.name && ["header", "query", "cookie"].includes(scheme.in ?? "") ? 0 : undefined;
  if (scheme.type === "http") {
    const s = (scheme.scheme ?? "bearer").toLowerCase();
    if (s === "bearer") return 0;
    if (s === "basic") return 2;
    return INTERACTIVE_HTTP.has(s) || !/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(s) ? undefined : 3;
  }
  if (scheme.type === "oauth2" || scheme.type === "openIdConnect") return 1;
  return undefined;
}

/** Where the credential goes for a scheme: a header (name and full value), a query parameter or a cookie. */
export function placement(scheme: AuthScheme, credential: string): { header: string; value: string } | { query: string } | { cookie: string } {
  if (scheme.type === "apiKey" && scheme.in === "query") return { query: scheme.name! };
  if (scheme.type === "apiKey" && scheme.in === "cookie") return { cookie: scheme.name! };
  if (scheme.type === "apiKey") return { header: scheme.name!.toLowerCase(), value: credential };
  const s = scheme.type === "http" ? (scheme.scheme ?? "bearer").toLowerCase() : "bearer";
  // RFC 7617: user-id ":" password. A value without a colon is a user with an empty password (Stripe's `sk_…:`).
  if (s === "basic") return { header: "authorization", value: `Basic ${Buffer.from(credential.includes(":") ? credential : `${credential}:`).toString("base64")}` };
  if (s === "bearer") return { header: "authorization", value: `Bearer ${credential}` };
  return { header: "authorization", value: `${scheme.scheme} ${credential}` };
}

/** A Basic scheme named after its two parts (Twilio's `accountSid_authToken`) says what user and password are. */
function namedParts(name: string): [string, string] | undefined {
  const parts = /^([A-Za-z][A-Za-z0-9]*)[_:]([A-Za-z][A-Za-z0-9]*)$/.exec(name);
  const generic = /^(basic|http|https|auth|authentication|authorization|security|scheme|default|credentials?|api|apikey|key|token|bearer)$/i;
  return parts && !generic.test(parts[1]!) && !generic.test(parts[2]!) ? [parts[1]!, parts[2]!] : undefined;
}

/**
 * One sentence on how the credential in `env` is sent for a scheme and what value it takes — never the value itself;
 * the scheme's own description (plain text) follows.
 */
export function credentialHow(env: string, name: string, scheme: AuthScheme): string {
  let how: string;
  if (scheme.type === "apiKey") {
    how = scheme.in === "query" ? `${env} is sent as the query parameter ${scheme.name} (?${scheme.name}=<value>)` : scheme.in === "cookie" ? `${env} is sent as the cookie ${scheme.name} (Cookie: ${scheme.name}=<value>)` : `${env} is sent as the ${scheme.name} header (${scheme.name}: <value>)`;
  } else if (scheme.type === "oauth2" || scheme.type === "openIdConnect") {
    how = `${env} holds an ${scheme.type === "oauth2" ? "OAuth 2" : "OpenID Connect"} access token (obtained outside this CLI), sent as "Authorization: Bearer <token>"`;
  } else if (scheme.type === "http" && (scheme.scheme ?? "bearer").toLowerCase() === "basic") {
    const parts = namedParts(name);
    how = `${env} is sent as HTTP Basic: set it to <user>:<password> (the two joined by a colon${parts ? `; for ${name}, <${parts[0]}>:<${parts[1]}>` : ""}); the CLI base64-encodes it into "Authorization: Basic <base64>" (a value without a colon is the user with an empty password)`;
  } else if (scheme.type === "http" && (scheme.scheme ?? "bearer").toLowerCase() === "bearer") {
    how = `${env} is sent as "Authorization: Bearer <value>"${scheme.bearerFormat ? ` (a ${scheme.bearerFormat})` : ""}`;
  } else if (scheme.type === "http") {
    how = `${env} is sent as "Authorization: ${scheme.scheme} <value>"`;
  } else {
    how = `${name} (${scheme.type}) cannot be sent from ${env}`;
  }
  return `${how}.${scheme.description ? ` The API says: ${scheme.description}` : ""}`;
}

/** How each scheme the CLI's commands send takes the credential (root help, --describe). */
export function credentialsHow(manifest: Manifest): string[] {
  return Object.entries(manifest.auth.schemes).map(([name, scheme]) => credentialHow(manifest.auth.env, name, scheme));
}

/**
 * What a command's help says about its credential where the help's `auth.sent` does not already say it all (several
 * schemes, or an optional credential); undefined otherwise.
 */
export function commandCredentialNote(manifest: Manifest, command: Command): string | undefined {
  return Object.keys(manifest.auth.schemes).length > 1 || command.authOptional ? commandCredential(manifest, command) : undefined;
}

/** How a command's credential is sent; undefined when it sends none. */
export function commandCredential(manifest: Manifest, command: Command): string | undefined {
  const name = command.auth[0];
  const scheme = name === undefined ? undefined : manifest.auth.schemes[name];
  if (!name || !scheme) return undefined;
  return `${command.authOptional ? `Optional (the API also answers without it): ` : ""}${credentialHow(manifest.auth.env, name, scheme)}`;
}
