import type { AuthScheme } from "../manifest.js";
import type { Role, SchemeKind } from "./kind.js";
import { read } from "./kind.js";

/** Whether the CLI can obtain a token with what is set (client credentials) or renew one (a refresh token). */
const canObtain = (scheme: AuthScheme) => !!(scheme.tokenUrl || scheme.openIdConnectUrl);
const canRefresh = (scheme: AuthScheme) => !!(scheme.refreshUrl || scheme.openIdConnectUrl);

/**
 * OAuth 2 and OpenID Connect: an access token sent as `Authorization: Bearer <token>`, given as is or obtained by the
 * CLI (oauth.ts) with the client credentials grant or a refresh token where the document names the token endpoint.
 */
export const oauth: SchemeKind = {
  is: (scheme) => scheme.type === "oauth2" || scheme.type === "openIdConnect",
  rank: () => 1,
  roles(scheme) {
    if (scheme.type === "openIdConnect")
      return scheme.openIdConnectUrl ? ["accessToken", "clientId", "clientSecret", "refreshToken"] : ["accessToken"];
    // A refresh token is exchanged by a client: its id always, its secret when it is a confidential client.
    return [
      "accessToken",
      ...(scheme.tokenUrl || scheme.refreshUrl ? (["clientId", "clientSecret"] as Role[]) : []),
      ...(scheme.refreshUrl ? (["refreshToken"] as Role[]) : []),
    ];
  },
  source(scheme) {
    const env = scheme.env;
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
  },
  needs(scheme) {
    const env = scheme.env;
    return [
      env.accessToken,
      env.clientId && env.clientSecret && canObtain(scheme) ? `${env.clientId} and ${env.clientSecret}` : undefined,
      env.refreshToken && canRefresh(scheme)
        ? `${env.refreshToken}${env.clientId ? ` (with ${env.clientId}${env.clientSecret ? `, and ${env.clientSecret} for a confidential client` : ""})` : ""}`
        : undefined,
    ]
      .filter(Boolean)
      .join(", or ");
  },
  how(name, scheme) {
    const env = scheme.env;
    const kind = scheme.type === "oauth2" ? "OAuth 2" : "OpenID Connect";
    const ways = [
      env.clientId && env.clientSecret && (scheme.tokenUrl || scheme.openIdConnectUrl)
        ? `${env.clientId} and ${env.clientSecret} (the client credentials grant${scheme.tokenUrl ? ` at ${scheme.tokenUrl}` : ""})`
        : undefined,
      env.refreshToken && (scheme.refreshUrl || scheme.openIdConnectUrl)
        ? `${env.refreshToken} (exchanged${scheme.refreshUrl ? ` at ${scheme.refreshUrl}` : ""}${env.clientId ? `, with ${env.clientId} and, for a confidential client, ${env.clientSecret}` : ""})`
        : undefined,
    ].filter(Boolean);
    return `${name} (${kind}) is sent as "Authorization: Bearer <token>": the token is ${env.accessToken} as given${ways.length ? `, or one the CLI obtains itself from ${ways.join(", or from ")}, renewed when it expires (tokens obtained are cached under the user's cache folder, mode 0600)` : ""}`;
  },
  place: (_scheme, value) => ({ header: "authorization", value: `Bearer ${value}` }),
  carried: (request) => /^bearer \S/i.test(request.header("authorization") ?? ""),
};
