import { afterEach, describe, expect, it } from "vitest";
import { startOAuthServer } from "../fixtures/oauth-server.mjs";

// The loopback OAuth 2 authorization server (test/fixtures/oauth-server.mjs, the certified oidc-provider) that tests
// of generated CLIs fetch their tokens from: client credentials over HTTP Basic and in the body, verify/revoke for a
// resource API, refresh tokens that rotate, and the error bodies a CLI has to read.

type Server = Awaited<ReturnType<typeof startOAuthServer>>;
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(options?: Parameters<typeof startOAuthServer>[0]): Promise<Server> {
  const server = await startOAuthServer(options);
  servers.push(server);
  return server;
}

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;

/** A token endpoint's JSON answer (RFC 6749 §5.1, or §5.2's error), the fields the tests read. */
interface TokenAnswer {
  access_token: string;
  refresh_token: string;
  scope: string;
}

async function token(
  url: string,
  body: Record<string, string>,
  authorization?: string,
): Promise<{ status: number; headers: Headers; json: TokenAnswer }> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
      ...(authorization ? { authorization } : {}),
    },
    body: new URLSearchParams(body),
  });
  return { status: response.status, headers: response.headers, json: (await response.json()) as TokenAnswer };
}

const CLIENTS = [
  { client_id: "cli", client_secret: "s3cret", scope: "items:read items:write" },
  { client_id: "poster", client_secret: "p0st", scope: "admin", token_endpoint_auth_method: "client_secret_post" },
];

describe("the loopback OAuth server", () => {
  it("serves discovery on 127.0.0.1 over http", async () => {
    const server = await serve({ clients: CLIENTS });
    expect(server.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const discovery = await (await fetch(server.discoveryUrl)).json();
    expect(discovery.issuer).toBe(server.issuer);
    expect(discovery.token_endpoint).toBe(server.tokenUrl);
    expect(discovery.grant_types_supported).toEqual(expect.arrayContaining(["client_credentials", "refresh_token"]));
    expect(discovery.token_endpoint_auth_methods_supported).toEqual(
      expect.arrayContaining(["client_secret_basic", "client_secret_post"]),
    );
  });

  it("issues an opaque access token for client credentials over HTTP Basic, verifies it, and revokes it", async () => {
    const server = await serve({ clients: CLIENTS, accessTokenTtlSeconds: 600 });
    const { status, headers, json } = await token(
      server.tokenUrl,
      { grant_type: "client_credentials", scope: "items:read" },
      basic("cli", "s3cret"),
    );
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toBe("no-store");
    expect(json).toEqual({
      access_token: expect.stringMatching(/^[\w-]{43}$/),
      token_type: "Bearer",
      expires_in: 600,
      scope: "items:read",
    });
    expect(json).not.toHaveProperty("refresh_token");

    expect(await server.verify(json.access_token)).toMatchObject({ clientId: "cli", scope: "items:read" });
    await server.revoke(json.access_token);
    expect(await server.verify(json.access_token)).toBeUndefined();
    expect(await server.verify("not-a-token")).toBeUndefined();

    expect(server.requests).toEqual([
      {
        grant_type: "client_credentials",
        client_id: "cli",
        client_auth: "basic",
        scope: "items:read",
        resource: undefined,
        status: 200,
      },
    ]);
  });

  it("takes client_secret_post from a client registered for it", async () => {
    const server = await serve({ clients: CLIENTS });
    const { status, json } = await token(server.tokenUrl, {
      grant_type: "client_credentials",
      scope: "admin",
      client_id: "poster",
      client_secret: "p0st",
    });
    expect(status).toBe(200);
    expect(await server.verify(json.access_token)).toMatchObject({ clientId: "poster", scope: "admin" });
    expect(server.requests[0]).toMatchObject({ client_id: "poster", client_auth: "post" });
  });

  it("exchanges an issued refresh token for an access token, rotating it", async () => {
    const server = await serve({ clients: CLIENTS });
    const refreshToken = await server.issueRefreshToken("cli", "items:read items:write");
    const first = await token(
      server.tokenUrl,
      { grant_type: "refresh_token", refresh_token: refreshToken },
      basic("cli", "s3cret"),
    );
    expect(first.status).toBe(200);
    expect(first.json).toEqual({
      access_token: expect.stringMatching(/^[\w-]{43}$/),
      refresh_token: expect.stringMatching(/^[\w-]{43}$/),
      token_type: "Bearer",
      expires_in: 3600,
      scope: "items:read items:write",
    });
    expect(first.json.refresh_token).not.toBe(refreshToken);
    expect(await server.verify(first.json.access_token)).toMatchObject({
      clientId: "cli",
      scope: "items:read items:write",
    });

    // Narrower scope on refresh is fine; the rotated token works; the old one is spent.
    const second = await token(
      server.tokenUrl,
      { grant_type: "refresh_token", refresh_token: first.json.refresh_token, scope: "items:read" },
      basic("cli", "s3cret"),
    );
    expect(second.status).toBe(200);
    expect(second.json.scope).toBe("items:read");

    await server.revokeRefreshToken(second.json.refresh_token);
    const revoked = await token(
      server.tokenUrl,
      { grant_type: "refresh_token", refresh_token: second.json.refresh_token },
      basic("cli", "s3cret"),
    );
    expect(revoked).toMatchObject({
      status: 400,
      json: { error: "invalid_grant", error_description: "grant request is invalid" },
    });
    expect(await server.verify(second.json.access_token)).toBeDefined();
  });

  it("grants a client without registered scope what it asks for, and keeps refresh tokens when rotation is off", async () => {
    const server = await serve({ rotateRefreshTokens: false });
    const issued = await token(
      server.tokenUrl,
      { grant_type: "client_credentials", scope: "pets:read pets:write" },
      basic("test-client", "test-secret"),
    );
    expect(issued).toMatchObject({ status: 200, json: { scope: "pets:read pets:write" } });

    const refreshToken = await server.issueRefreshToken("test-client", "pets:read");
    for (let i = 0; i < 2; i++) {
      const refreshed = await token(
        server.tokenUrl,
        { grant_type: "refresh_token", refresh_token: refreshToken },
        basic("test-client", "test-secret"),
      );
      expect(refreshed).toMatchObject({ status: 200, json: { refresh_token: refreshToken, scope: "pets:read" } });
    }
  });

  it("answers invalid_client 401, invalid_scope 400 and invalid_grant 400 as JSON", async () => {
    const server = await serve({ clients: CLIENTS });
    const wrongSecret = await token(
      server.tokenUrl,
      { grant_type: "client_credentials", scope: "items:read" },
      basic("cli", "wrong"),
    );
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.json).toEqual({ error: "invalid_client", error_description: "client authentication failed" });
    expect(wrongSecret.headers.get("www-authenticate")).toMatch(/^Basic realm=.*error="invalid_client"/);

    const otherScope = await token(
      server.tokenUrl,
      { grant_type: "client_credentials", scope: "admin" },
      basic("cli", "s3cret"),
    );
    expect(otherScope).toMatchObject({
      status: 400,
      json: { error: "invalid_scope", error_description: "requested scope is not allowed", scope: "admin" },
    });

    const unknown = await token(
      server.tokenUrl,
      { grant_type: "refresh_token", refresh_token: "nope" },
      basic("cli", "s3cret"),
    );
    expect(unknown).toMatchObject({
      status: 400,
      json: { error: "invalid_grant", error_description: "grant request is invalid" },
    });

    expect(server.requests.map((r) => [r.grant_type, r.client_id, r.status])).toEqual([
      ["client_credentials", "cli", 401],
      ["client_credentials", "cli", 400],
      ["refresh_token", "cli", 400],
    ]);
  });
});
