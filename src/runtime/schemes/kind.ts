import type { AuthScheme, CredentialVariables } from "../manifest.js";
import { httpSchemeOf } from "../manifest.js";

export { httpSchemeOf };

/**
 * A kind of security scheme (docs/architecture.md, "Where to add …"): everything the build and the CLI know about it in
 * one module — which variables it reads (the designer names one per role), how a value is read from them, how it is
 * sent, how help and errors say so, and how the inspection sees it carried in a dry run's request. The registry is
 * index.ts; each kind is one file beside it.
 */
export interface SchemeKind {
  /** Whether a scheme (as the document's reader, the manifest or `--describe` has it) is of this kind. */
  is(scheme: SchemeShape): boolean;
  /** Whether the CLI can send it at all: 0 is simplest (the value is the credential itself); undefined: it cannot. */
  rank(scheme: SchemeShape): number | undefined;
  /** The roles it reads, each an environment variable the designer names. */
  roles(scheme: SchemeShape & TokenUrls): Role[];
  /** Its value as its variables hold it now; undefined when they are not set. */
  source(scheme: AuthScheme): Source | undefined;
  /** What it needs set, in words ("ACME_TOKEN"). */
  needs(scheme: AuthScheme): string;
  /** One sentence on how its variables are sent (never a value), without the scheme's own description. */
  how(name: string, scheme: AuthScheme): string;
  /** Where a value goes; undefined for a kind that signs the request instead (sigv4.ts). */
  place(scheme: AuthScheme, value: string): Placement | undefined;
  /** Whether a dry run's request, its credentials redacted to `redacted`, carries it in its place. */
  carried(request: SeenRequest, scheme: SchemeShape, redacted: string): boolean;
}

/** What every reader of a scheme has: the document's type and fields, and a signature when each request is signed. */
export interface SchemeShape {
  type: string;
  scheme?: string;
  in?: string;
  name?: string;
  signature?: { kind: string };
}

/** OAuth 2 and OpenID Connect: where the CLI can obtain or renew a token. */
export interface TokenUrls {
  tokenUrl?: string;
  refreshUrl?: string;
  openIdConnectUrl?: string;
}

export type Role = keyof CredentialVariables;

/** Where a credential goes: a header (name and full value), a query parameter or a cookie. */
export type Placement = { header: string; value: string } | { query: string } | { cookie: string };

/** Where a scheme's value comes from right now. */
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

/** A dry run's request as the inspection reads it: its URL and its headers, lower-cased. */
export interface SeenRequest {
  url: string;
  header(name: string): string | undefined;
}

/** A variable's value, if set and not empty. */
export const read = (name: string | undefined) => (name ? process.env[name] || undefined : undefined);

/** The value of a kind whose one variable holds the credential itself. */
export function oneValue(scheme: AuthScheme): Source | undefined {
  const value = read(scheme.env.value);
  return value ? { kind: "value", value } : undefined;
}
