import { alternativeNeeds, isBasic, isSigV4, read, variablesOf } from "./credentials.js";
import { CliError } from "./errors.js";
import { httpSchemeOf, type AuthScheme, type Command, type Manifest } from "./manifest.js";

/**
 * Credentials as the API takes them, in words and on the wire: each scheme reads its own environment variables
 * (credentials.ts) and is sent the way it says — an apiKey in its header, query parameter or cookie; HTTP Bearer (also
 * an OAuth 2 or OpenID Connect access token); HTTP Basic (user and password, base64-encoded by the CLI); another
 * token-style HTTP scheme as `Authorization: <scheme> <value>`. This file is the one source of what help, --describe,
 * the rules, the Skills, `auth status` and the MCP server say about them.
 */

/** HTTP schemes that need a challenge-response exchange or a key pair: one static value cannot answer them. */
const INTERACTIVE_HTTP = new Set([
  "digest",
  "negotiate",
  "ntlm",
  "hoba",
  "mutual",
  "scram-sha-1",
  "scram-sha-256",
  "vapid",
  "concealed",
  "privatetoken",
]);

/** Whether the CLI can send a scheme at all; 0 is simplest (the value is the credential itself). */
export function sendRank(scheme: Pick<AuthScheme, "type" | "scheme" | "in" | "name"> | undefined): number | undefined {
  if (!scheme) return undefined;
  if (scheme.type === "apiKey")
    return scheme.name && ["header", "query", "cookie"].includes(scheme.in ?? "") ? 0 : undefined;
  if (scheme.type === "http") {
    const s = httpSchemeOf(scheme);
    if (s === "bearer") return 0;
    if (s === "basic") return 2;
    return INTERACTIVE_HTTP.has(s) || !/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(s) ? undefined : 3;
  }
  if (scheme.type === "oauth2" || scheme.type === "openIdConnect") return 1;
  return undefined;
}

/**
 * Where a credential goes for a scheme: a header (name and full value), a query parameter or a cookie. AWS Signature
 * Version 4 is not placed but computed over the whole request (sigv4.ts).
 */
export function placement(
  scheme: AuthScheme,
  credential: string,
): { header: string; value: string } | { query: string } | { cookie: string } {
  if (scheme.type === "apiKey" && scheme.in === "query") return { query: scheme.name! };
  if (scheme.type === "apiKey" && scheme.in === "cookie") return { cookie: scheme.name! };
  if (scheme.type === "apiKey") return { header: scheme.name!.toLowerCase(), value: credential };
  const s = scheme.type === "http" ? httpSchemeOf(scheme) : "bearer";
  // RFC 7617: user-id ":" password (credentials.ts joins them; an empty password is allowed).
  if (s === "basic")
    return {
      header: "authorization",
      value: `Basic ${Buffer.from(credential.includes(":") ? credential : `${credential}:`).toString("base64")}`,
    };
  if (s === "bearer") return { header: "authorization", value: `Bearer ${credential}` };
  return { header: "authorization", value: `${scheme.scheme} ${credential}` };
}

/** A Basic scheme named after its two parts (Twilio's `accountSid_authToken`) says what user and password are. */
function namedParts(name: string): [string, string] | undefined {
  const parts = /^([A-Za-z][A-Za-z0-9]*)[_:]([A-Za-z][A-Za-z0-9]*)$/.exec(name);
  const generic =
    /^(basic|http|https|auth|authentication|authorization|security|scheme|default|credentials?|api|apikey|key|token|bearer)$/i;
  return parts && !generic.test(parts[1]!) && !generic.test(parts[2]!) ? [parts[1]!, parts[2]!] : undefined;
}

/**
 * One sentence on how a scheme's variables are sent and what values they take — never a value; the scheme's own
 * description (plain text) follows.
 */
export function credentialHow(name: string, scheme: AuthScheme): string {
  const env = scheme.env;
  let how: string;
  if (isSigV4(scheme)) {
    const aws = scheme.aws;
    how = `${name} signs every request with AWS Signature Version 4 (computed by the CLI, never sent as is): the access key id ${env.accessKeyId} and the secret access key ${env.secretAccessKey}${env.sessionToken ? `, with ${env.sessionToken} for temporary credentials` : ""}, for the service ${aws?.service ?? "named by the API's host"} and the region an AWS host names, else AWS_REGION (else AWS_DEFAULT_REGION)${aws?.region ? `, else ${aws.region}` : ""}${aws?.endpoint ? `; AWS_REGION also picks the host (${aws.endpoint})` : ""}; the request carries "Authorization: AWS4-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…" and x-amz-date`;
  } else if (scheme.signature) {
    how = `${name} requires each request signed with ${scheme.signature.title} (the document says so: ${scheme.signature.by}), which this CLI cannot compute: ${env.value ?? "its variable"} is sent as is${scheme.type === "apiKey" ? ` in ${scheme.in === "query" ? `the query parameter ${scheme.name}` : scheme.in === "cookie" ? `the cookie ${scheme.name}` : `the ${scheme.name} header`}` : " in the Authorization header"}, which the API refuses unless it holds a signature valid for that very request`;
  } else if (scheme.type === "apiKey") {
    how =
      scheme.in === "query"
        ? `${env.value} is sent as the query parameter ${scheme.name} (?${scheme.name}=<value>)`
        : scheme.in === "cookie"
          ? `${env.value} is sent as the cookie ${scheme.name} (Cookie: ${scheme.name}=<value>)`
          : `${env.value} is sent as the ${scheme.name} header (${scheme.name}: <value>)`;
  } else if (scheme.type === "oauth2" || scheme.type === "openIdConnect") {
    const kind = scheme.type === "oauth2" ? "OAuth 2" : "OpenID Connect";
    const ways = [
      env.clientId && env.clientSecret && (scheme.tokenUrl || scheme.openIdConnectUrl)
        ? `${env.clientId} and ${env.clientSecret} (the client credentials grant${scheme.tokenUrl ? ` at ${scheme.tokenUrl}` : ""})`
        : undefined,
      env.refreshToken && (scheme.refreshUrl || scheme.openIdConnectUrl)
        ? `${env.refreshToken} (exchanged${scheme.refreshUrl ? ` at ${scheme.refreshUrl}` : ""}${env.clientId ? `, with ${env.clientId} and, for a confidential client, ${env.clientSecret}` : ""})`
        : undefined,
    ].filter(Boolean);
    how = `${name} (${kind}) is sent as "Authorization: Bearer <token>": the token is ${env.accessToken} as given${ways.length ? `, or one the CLI obtains itself from ${ways.join(", or from ")}, renewed when it expires (tokens obtained are cached under the user's cache folder, mode 0600)` : ""}`;
  } else if (isBasic(scheme) && env.value) {
    const parts = namedParts(name);
    how = `${env.value} is sent as HTTP Basic: set it to <user>:<password> (the two joined by a colon${parts ? `; for ${name}, <${parts[0]}>:<${parts[1]}>` : ""}); the CLI base64-encodes it into "Authorization: Basic <base64>" (a value without a colon is the user with an empty password)`;
  } else if (isBasic(scheme)) {
    const parts = namedParts(name);
    how = `${env.username} and ${env.password} are sent as HTTP Basic, user and password${parts ? ` (for ${name}: the ${parts[0]} and the ${parts[1]})` : ""}; the CLI base64-encodes them into "Authorization: Basic <base64>" (an unset password is empty)`;
  } else if (scheme.type === "http" && httpSchemeOf(scheme) === "bearer") {
    how = `${env.value} is sent as "Authorization: Bearer <value>"${scheme.bearerFormat ? ` (a ${scheme.bearerFormat})` : ""}`;
  } else if (scheme.type === "http") {
    how = `${env.value} is sent as "Authorization: ${scheme.scheme} <value>"`;
  } else {
    how = `${name} (${scheme.type}) cannot be sent`;
  }
  return `${how}.${scheme.description ? ` The API says: ${scheme.description}` : ""}`;
}

/** How each scheme the CLI's commands send takes its credential (root help, --describe, the rules, README). */
export function credentialsHow(manifest: Pick<Manifest, "auth">): string[] {
  return Object.entries(manifest.auth.schemes).map(([name, scheme]) => credentialHow(name, scheme));
}

/** Every variable name the CLI reads for credentials, sorted. */
export function credentialVariables(manifest: Pick<Manifest, "auth">): string[] {
  return [
    ...new Set(
      Object.values(manifest.auth.schemes).flatMap((s) => Object.values(s.env).filter((v): v is string => !!v)),
    ),
  ].sort();
}

/** What a command needs, in one sentence: each alternative's variables; undefined when it sends none. */
export function commandCredential(
  manifest: Pick<Manifest, "auth">,
  command: Pick<Command, "auth" | "authOptional">,
): string | undefined {
  if (!command.auth.length) return undefined;
  const alternatives = command.auth.map((r) => alternativeNeeds(manifest, r));
  const needs =
    alternatives.length === 1
      ? `Needs ${alternatives[0]}`
      : `Needs one of: ${alternatives.map((a, i) => `(${i + 1}) ${a}`).join("; ")} — the first that is set is used`;
  const names = [...new Set(command.auth.flatMap((r) => Object.keys(r)))];
  const signed = names.filter((n) => manifest.auth.schemes[n] && isSigV4(manifest.auth.schemes[n]!));
  const unsigned = names.filter((n) => manifest.auth.schemes[n]?.signature && !signed.includes(n));
  return `${command.authOptional ? "Optional (the API also answers without it): " : ""}${needs}.${signed.length ? ` Requests are signed with AWS Signature Version 4 (${signed.join(", ")}).` : ""}${unsigned.length ? ` ${unsigned.map((n) => `${n} requires a request signature (${manifest.auth.schemes[n]!.signature!.title}) that this CLI cannot compute`).join("; ")}: the API refuses these calls unless the variable holds a signature valid for that very request.` : ""}`;
}

/**
 * The schemes whose request signature the CLI cannot compute (any but AWS Signature Version 4), with what says so:
 * help, `auth status` and the inspection say them plainly.
 */
export function uncomputedSignatures(
  manifest: Pick<Manifest, "auth">,
): Array<{ scheme: string; signature: string; by: string }> {
  return Object.entries(manifest.auth.schemes)
    .filter(([, s]) => s.signature && !isSigV4(s))
    .map(([name, s]) => ({ scheme: name, signature: s.signature!.title, by: s.signature!.by }));
}

/** A command's security as --describe and the MCP tools declare it: each alternative's schemes and variables. */
export function commandAuth(manifest: Manifest, command: Command) {
  return {
    required: command.auth.length > 0 && !command.authOptional,
    alternatives: command.auth.map((r) =>
      Object.keys(r).map((name) => ({
        scheme: name,
        variables: Object.values(manifest.auth.schemes[name]?.env ?? {}).filter(Boolean),
        ...(r[name]!.length ? { scopes: r[name] } : {}),
      })),
    ),
  };
}

/** The rule every response carries about credentials (workflow, R1): where they come from, and where to look. */
export function credentialRule(manifest: Pick<Manifest, "auth" | "product">): string {
  const names = credentialVariables(manifest);
  if (!names.length) return "This CLI sends no credentials.";
  return `Credentials come from the environment only (${names.join(", ")}; \`${manifest.product.binary} auth status\`).`;
}

/** CREDENTIAL_MISSING for a command none of whose alternatives is set, naming each alternative's variables. */
export function missingCredential(manifest: Manifest, command: Command): CliError {
  const alternatives = command.auth.map((r) => alternativeNeeds(manifest, r));
  const unset = [
    ...new Set(
      command.auth
        .flatMap((r) => Object.keys(r))
        .flatMap((n) => (manifest.auth.schemes[n] ? variablesOf(manifest.auth.schemes[n]!) : [])),
    ),
  ].filter((v) => !read(v));
  const what =
    alternatives.length === 1
      ? `needs ${alternatives[0]}`
      : `needs one of: ${alternatives.map((a, i) => `(${i + 1}) ${a}`).join("; ")}`;
  return new CliError(
    "CREDENTIAL_MISSING",
    `"${command.name}" ${what}; not set: ${unset.join(", ")}.`,
    `Export the variables in the environment (never pass a credential as an argument). ${[
      ...new Set(command.auth.flatMap((r) => Object.keys(r))),
    ]
      .filter((n) => manifest.auth.schemes[n])
      .map((n) => credentialHow(n, manifest.auth.schemes[n]!).replace(/ The API says: .*$/, ""))
      .join(" ")} \`${manifest.product.binary} auth status\` shows which are set.`,
    {
      alternatives: command.auth.map((r) => ({
        schemes: Object.keys(r),
        variables: Object.keys(r).flatMap((n) =>
          manifest.auth.schemes[n] ? variablesOf(manifest.auth.schemes[n]!) : [],
        ),
      })),
      unset,
    },
  );
}
