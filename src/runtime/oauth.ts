import { nodeCrypto } from "../core/node-crypto.js";
import { chmodSync, mkdirSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../core/atomic.js";
import { REDACTED } from "../core/redact.js";
import { rememberSecret, type Source } from "./credentials.js";
import { CliError } from "./errors.js";
import { send, type Response } from "./http.js";
import type { AuthScheme, Manifest } from "./manifest.js";

/**
 * OAuth 2 access tokens for a client without a person at the keyboard (agent-cli-spec I8/I9): the client credentials
 * grant (client id and secret → the document's token URL, with the command's scopes) or the refresh token grant, or a
 * static access token as given. Tokens obtained are kept between processes in the user's cache folder
 * (`$XDG_CACHE_HOME/<binary>/oauth/`, files 0600 in a 0700 folder), keyed by a hash of the token endpoint, the client,
 * the scopes and the refresh token — never in the project, never printed (docs/security.md).
 */

/** Renew a cached token this long before it expires, so it does not run out in flight. */
const EXPIRY_MARGIN_MS = 30_000;
/** RFC 6750's b64token, generously: printable ASCII without spaces, and not absurdly long. */
const TOKEN = /^[\x21-\x7e]{1,8192}$/;

export interface Token {
  value: string;
  /** Whether the CLI can get another one (client credentials or a refresh token are set). */
  renewable: boolean;
}

interface CacheEntry {
  access_token: string;
  /** Epoch milliseconds; absent when the server did not say. */
  expires_at?: number;
  /** A refresh token the server rotated to; used instead of the variable's from then on. */
  refresh_token?: string;
}

function cacheDir(binary: string): string {
  const base = process.env.XDG_CACHE_HOME || join(process.env.HOME || process.env.USERPROFILE || ".", ".cache");
  return join(base, binary, "oauth");
}

const hash = (text: string) => nodeCrypto().createHash("sha256").update(text).digest("hex");

/** Which obtained token a cache file holds: never a value in the name, only a hash of what it was obtained with. */
function cacheKey(
  endpoint: string,
  source: Extract<Source, { kind: "oauth" }>,
  scopes: string[],
  grant: "client_credentials" | "refresh_token",
): string {
  const client = grant === "client_credentials" ? source.client!.id : (source.refresh!.clientId ?? "");
  const basis = grant === "refresh_token" ? hash(source.refresh!.token) : "";
  return hash(JSON.stringify([endpoint, grant, client, [...scopes].sort(), basis])).slice(0, 32);
}

/** `AGENT_CLI_TOKEN_CACHE=off`: no token is read from or written to the cache (a HOME others can read, say). */
const cacheOff = () => process.env.AGENT_CLI_TOKEN_CACHE === "off";

function readCache(file: string): CacheEntry | undefined {
  if (cacheOff()) return undefined;
  try {
    const entry = JSON.parse(readFileSync(file, "utf8")) as CacheEntry;
    return typeof entry.access_token === "string" && TOKEN.test(entry.access_token) ? entry : undefined;
  } catch {
    return undefined;
  }
}

function writeCache(file: string, entry: CacheEntry): void {
  if (cacheOff()) return;
  try {
    mkdirSync(join(file, ".."), { recursive: true, mode: 0o700 });
    chmodSync(join(file, ".."), 0o700);
    writeFileAtomic(file, JSON.stringify(entry), 0o600);
  } catch {
    // A cache that cannot be written costs a token request per call, nothing more.
  }
}

const loopback = (host: string) => host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);

/** A token endpoint as the CLI will call it: absolute (a relative one is on the API's origin), https unless loopback. */
function endpointOf(url: string, baseUrl: string, schemeName: string): URL {
  let endpoint: URL;
  try {
    endpoint = new URL(url, baseUrl);
  } catch {
    throw new CliError(
      "AUTH_FAILED",
      `The token endpoint of ${schemeName} (${url}) is not a URL.`,
      "Report it with the issue command: the API's description names a token URL the CLI cannot use.",
      { scheme: schemeName },
    );
  }
  if (endpoint.protocol !== "https:" && !(endpoint.protocol === "http:" && loopback(endpoint.hostname))) {
    throw new CliError(
      "AUTH_FAILED",
      `The token endpoint of ${schemeName} is ${endpoint.origin}, which is not https; a client secret or refresh token is never sent in the clear.`,
      "Use an https token endpoint (the API's description names it).",
      { scheme: schemeName, endpoint: endpoint.origin },
    );
  }
  return endpoint;
}

const plain = (text: string, secrets: string[]) => {
  let out = text
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, " ")
    .trim()
    .slice(0, 200);
  for (const s of secrets) if (s) out = out.split(s).join(REDACTED);
  return out;
};

/** OpenID Connect: the token endpoint its discovery document names. */
async function discover(scheme: AuthScheme, schemeName: string, baseUrl: string): Promise<string> {
  const url = endpointOf(scheme.openIdConnectUrl!, baseUrl, schemeName);
  const response = await exchange(
    () => send({ method: "GET", url: url.href, headers: { accept: "application/json" } }),
    url,
    schemeName,
  );
  const endpoint = (response.data as { token_endpoint?: unknown } | null)?.token_endpoint;
  if (response.status !== 200 || typeof endpoint !== "string") {
    throw new CliError(
      "AUTH_FAILED",
      `The OpenID Connect discovery document of ${schemeName} (${url.origin}) did not name a token endpoint (HTTP ${response.status}).`,
      "Check the identity provider is up; report it with the issue command if it persists.",
      { scheme: schemeName, status: response.status },
    );
  }
  return endpoint;
}

/** Runs one exchange with the token endpoint; its transport failures are authentication failures (exit 10). */
async function exchange(call: () => Promise<Response>, endpoint: URL, schemeName: string): Promise<Response> {
  let response: Response;
  try {
    response = await call();
  } catch (error) {
    const reason = error instanceof CliError ? error.message : String(error);
    throw new CliError(
      "AUTH_FAILED",
      `No token from ${schemeName}'s token endpoint: ${reason}`,
      "Check the identity provider is reachable, then retry; AGENT_CLI_TIMEOUT_MS sets how long the CLI waits.",
      {
        scheme: schemeName,
        endpoint: endpoint.origin,
        reason: error instanceof CliError ? error.code : "NETWORK_ERROR",
      },
    );
  }
  if (response.status >= 300 && response.status < 400) {
    throw new CliError(
      "AUTH_FAILED",
      `${schemeName}'s token endpoint (${endpoint.origin}) redirected (HTTP ${response.status}); a credential is never sent on to where a redirect points.`,
      "Point the CLI at the final token endpoint; report it with the issue command if the API's description names the wrong one.",
      { scheme: schemeName, endpoint: endpoint.origin, status: response.status },
    );
  }
  return response;
}

/** Asks the token endpoint for a token: client authentication by HTTP Basic, or in the body when the server wants it. */
async function requestToken(
  endpoint: URL,
  schemeName: string,
  grant: Record<string, string>,
  client: { id: string; secret?: string } | undefined,
  secrets: string[],
): Promise<CacheEntry> {
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const post = (inBody: boolean) => {
    const headers: Record<string, string> = {
      accept: "application/json",
      "content-type": "application/x-www-form-urlencoded",
    };
    const fields = { ...grant };
    if (client && client.secret !== undefined && !inBody)
      headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret)}`).toString("base64")}`;
    else if (client)
      Object.assign(fields, {
        client_id: client.id,
        ...(client.secret !== undefined ? { client_secret: client.secret } : {}),
      });
    return exchange(
      () => send({ method: "POST", url: endpoint.href, headers, body: form(fields) }),
      endpoint,
      schemeName,
    );
  };
  let response = await post(false);
  const oauthError = (r: Response) =>
    r.data && typeof r.data === "object" ? (r.data as { error?: unknown; error_description?: unknown }) : undefined;
  // RFC 6749 §2.3.1: servers must take HTTP Basic, yet some take the client's credentials only in the body.
  if (response.status === 401 && client?.secret !== undefined && oauthError(response)?.error === "invalid_client")
    response = await post(true);
  const body = oauthError(response);
  if (response.status !== 200) {
    const code = typeof body?.error === "string" ? plain(body.error, secrets) : undefined;
    const description =
      typeof body?.error_description === "string" ? plain(body.error_description, secrets) : undefined;
    const said = code
      ? `${code}${description ? ` (${description})` : ""}`
      : `HTTP ${response.status}${typeof response.data === "string" && /<html|<!doctype/i.test(response.data) ? ", an HTML page" : ""}`;
    const next =
      code === "invalid_client"
        ? "Check the client id and secret variables (`auth status` names them)."
        : code === "invalid_grant"
          ? "The refresh token was refused (expired or revoked): set a new one, or client id and secret if the API allows the client credentials grant."
          : code === "invalid_scope"
            ? "The client may not ask for these scopes; ask the API's owner to grant them."
            : "Check the credential variables (`auth status`) and that the identity provider is up.";
    throw new CliError("AUTH_FAILED", `${schemeName}'s token endpoint refused: ${said}.`, next, {
      scheme: schemeName,
      endpoint: endpoint.origin,
      status: response.status,
      ...(code ? { oauthError: code } : {}),
    });
  }
  const shape =
    "Report it with the issue command: the identity provider answered with something other than an OAuth 2 token.";
  if (!body || typeof response.data !== "object")
    throw new CliError(
      "AUTH_FAILED",
      `${schemeName}'s token endpoint (${endpoint.origin}) answered with something other than a JSON token${typeof response.data === "string" && /<html|<!doctype/i.test(response.data) ? " (an HTML page)" : ""}.`,
      shape,
      { scheme: schemeName, endpoint: endpoint.origin },
    );
  const data = body as { access_token?: unknown; token_type?: unknown; expires_in?: unknown; refresh_token?: unknown };
  if (typeof data.access_token !== "string" || !TOKEN.test(data.access_token))
    throw new CliError(
      "AUTH_FAILED",
      `${schemeName}'s token endpoint answered with an access token that cannot be sent (missing, too long, or holding spaces or control characters); it was not used.`,
      shape,
      { scheme: schemeName, endpoint: endpoint.origin },
    );
  if (typeof data.token_type === "string" && data.token_type.toLowerCase() !== "bearer")
    throw new CliError(
      "AUTH_FAILED",
      `${schemeName}'s token endpoint issued a ${plain(data.token_type, secrets)} token; the CLI sends Bearer tokens only.`,
      shape,
      { scheme: schemeName, endpoint: endpoint.origin },
    );
  const seconds =
    typeof data.expires_in === "number"
      ? data.expires_in
      : typeof data.expires_in === "string"
        ? Number(data.expires_in)
        : NaN;
  rememberSecret(data.access_token);
  const rotated =
    typeof data.refresh_token === "string" && TOKEN.test(data.refresh_token) ? data.refresh_token : undefined;
  if (rotated) rememberSecret(rotated);
  return {
    access_token: data.access_token,
    ...(Number.isFinite(seconds) && seconds > 0 ? { expires_at: Date.now() + seconds * 1000 } : {}),
    ...(rotated ? { refresh_token: rotated } : {}),
  };
}

/**
 * The access token a command sends for an OAuth scheme. `renew`: the API refused the last one, so a cached or static
 * token is not used again and a new one is obtained (AUTH_EXPIRED when none can be).
 */
export async function accessToken(
  manifest: Manifest,
  schemeName: string,
  source: Extract<Source, { kind: "oauth" }>,
  scopes: string[],
  baseUrl: string,
  renew = false,
): Promise<Token> {
  const scheme = manifest.auth.schemes[schemeName]!;
  const grant = source.refresh ? "refresh_token" : source.client ? "client_credentials" : undefined;
  if (!grant) {
    if (!renew) return { value: source.accessToken!, renewable: false };
    throw expired(manifest, schemeName, scheme);
  }
  const configured = grant === "refresh_token" ? (scheme.refreshUrl ?? scheme.tokenUrl) : scheme.tokenUrl;
  const endpointUrl = configured ?? (scheme.openIdConnectUrl ? await discover(scheme, schemeName, baseUrl) : undefined);
  if (!endpointUrl) throw expired(manifest, schemeName, scheme);
  const endpoint = endpointOf(endpointUrl, baseUrl, schemeName);
  const file = join(cacheDir(manifest.product.binary), `${cacheKey(endpoint.href, source, scopes, grant)}.json`);
  const cached = readCache(file);
  if (cached?.refresh_token) rememberSecret(cached.refresh_token);
  if (!renew) {
    if (cached) rememberSecret(cached.access_token);
    if (cached && (cached.expires_at === undefined || cached.expires_at - EXPIRY_MARGIN_MS > Date.now()))
      return { value: cached.access_token, renewable: true };
    // A token given as is serves until the API refuses it; only then is one obtained.
    if (!cached && source.accessToken) return { value: source.accessToken, renewable: true };
  }
  const secrets = [
    source.client?.secret,
    source.refresh?.token,
    source.refresh?.clientSecret,
    cached?.refresh_token,
  ].filter((s): s is string => !!s);
  const fields: Record<string, string> =
    grant === "refresh_token"
      ? { grant_type: "refresh_token", refresh_token: cached?.refresh_token ?? source.refresh!.token }
      : { grant_type: "client_credentials" };
  if (scopes.length) fields.scope = [...scopes].sort().join(" ");
  const client =
    grant === "client_credentials"
      ? source.client
      : source.refresh!.clientId
        ? {
            id: source.refresh!.clientId,
            ...(source.refresh!.clientSecret !== undefined ? { secret: source.refresh!.clientSecret } : {}),
          }
        : undefined;
  let entry: CacheEntry;
  try {
    entry = await requestToken(endpoint, schemeName, fields, client, secrets);
  } catch (error) {
    // A rotated refresh token the server no longer takes: the variable's own is the one to try, once.
    if (
      grant === "refresh_token" &&
      cached?.refresh_token &&
      error instanceof CliError &&
      error.details?.oauthError === "invalid_grant"
    ) {
      entry = await requestToken(
        endpoint,
        schemeName,
        { ...fields, refresh_token: source.refresh!.token },
        client,
        secrets,
      );
    } else throw error;
  }
  writeCache(file, entry);
  return { value: entry.access_token, renewable: true };
}

function expired(manifest: Manifest, schemeName: string, scheme: AuthScheme): CliError {
  const env = scheme.env;
  const ways = [
    env.clientId && env.clientSecret && scheme.tokenUrl ? `${env.clientId} and ${env.clientSecret}` : undefined,
    env.refreshToken ? env.refreshToken : undefined,
  ].filter(Boolean);
  return new CliError(
    "AUTH_EXPIRED",
    `The API refused the access token of ${schemeName} (expired or revoked), and the CLI cannot obtain a new one from what is set.`,
    `Set a fresh ${env.accessToken ?? "access token"}${ways.length ? `, or set ${ways.join(" or ")} so the CLI renews tokens itself` : ""}; \`${manifest.product.binary} auth status\` shows what is set.`,
    { scheme: schemeName },
  );
}

/** When each cached token of this CLI expires (auth status): a hash-named file says nothing else, and no value is read out. */
export function cachedTokens(manifest: Manifest): Array<{ file: string; expiresAt?: string; expired: boolean }> {
  const dir = cacheDir(manifest.product.binary);
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith(".json"));
  } catch {
    return [];
  }
  return files.map((f) => {
    const entry = readCache(join(dir, f));
    return {
      file: join(dir, f),
      ...(entry?.expires_at ? { expiresAt: new Date(entry.expires_at).toISOString() } : {}),
      expired: !entry || (entry.expires_at !== undefined && entry.expires_at <= Date.now()),
    };
  });
}
