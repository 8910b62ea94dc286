import { alternativeNeeds, isSigV4, read, variablesOf } from "./credentials.js";
import { CliError } from "./errors.js";
import type { AuthScheme, Command, Manifest } from "./manifest.js";
import { schemeKindOf, type Placement } from "./schemes/index.js";

/**
 * Credentials as the API takes them, in words and on the wire: each scheme reads its own environment variables
 * (credentials.ts) and is sent the way it says — an apiKey in its header, query parameter or cookie; HTTP Bearer (also
 * an OAuth 2 or OpenID Connect access token); HTTP Basic (user and password, base64-encoded by the CLI); another
 * token-style HTTP scheme as `Authorization: <scheme> <value>`. Each kind says so in its module (schemes/); this file
 * is the one source of what help, --describe, the rules, the Skills, `auth status` and the MCP server say of them.
 */

/** Whether the CLI can send a scheme at all; 0 is simplest (the value is the credential itself). */
export function sendRank(scheme: Pick<AuthScheme, "type" | "scheme" | "in" | "name"> | undefined): number | undefined {
  return scheme ? schemeKindOf(scheme)?.rank(scheme) : undefined;
}

/**
 * Where a credential goes for a scheme: a header (name and full value), a query parameter or a cookie. AWS Signature
 * Version 4 is not placed but computed over the whole request (sigv4.ts): it has no placement.
 */
export function placement(scheme: AuthScheme, credential: string): Placement | undefined {
  return schemeKindOf(scheme)?.place(scheme, credential);
}

/**
 * One sentence on how a scheme's variables are sent and what values they take — never a value; the scheme's own
 * description (plain text) follows.
 */
export function credentialHow(name: string, scheme: AuthScheme): string {
  const env = scheme.env;
  const kind = schemeKindOf(scheme);
  const how =
    scheme.signature && !isSigV4(scheme)
      ? `${name} requires each request signed with ${scheme.signature.title} (the document says so: ${scheme.signature.by}), which this CLI cannot compute: ${env.value ?? "its variable"} is sent as is${scheme.type === "apiKey" ? ` in ${scheme.in === "query" ? `the query parameter ${scheme.name}` : scheme.in === "cookie" ? `the cookie ${scheme.name}` : `the ${scheme.name} header`}` : " in the Authorization header"}, which the API refuses unless it holds a signature valid for that very request`
      : kind
        ? kind.how(name, scheme)
        : `${name} (${scheme.type}) cannot be sent`;
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
