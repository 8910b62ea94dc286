import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { join } from "node:path";
import { tempDir } from "../helpers.js";

/**
 * A real npm registry on loopback: verdaccio (a dev dependency) from a config written here, its storage in a temporary
 * folder, no uplinks (nothing leaves the machine), publishing for authenticated users. A user is created through the
 * registry's own adduser API, and its token goes into an .npmrc in a temporary HOME: `env` points npm at it whatever
 * the caller has exported.
 */
export interface Registry {
  url: string;
  /** A HOME holding the .npmrc with the publisher's token. */
  home: string;
  /** What npm (and inter's npm) needs to use this registry as that user. */
  env: Record<string, string>;
  /** npm's environment for another URL in front of this registry (a faulty proxy), with the publisher's token or none. */
  envFor(url: string, token: boolean): Record<string, string>;
  stop(): Promise<void>;
}

/** npm's environment for a HOME and .npmrc of its own, leaving out the agents' and CI's variables a caller may have set. */
function npmEnv(home: string, cache: string, url: string): Record<string, string> {
  return {
    HOME: home,
    npm_config_userconfig: join(home, ".npmrc"),
    npm_config_cache: cache,
    npm_config_registry: url,
    npm_config_update_notifier: "false",
    GITHUB_ACTIONS: "",
    GITLAB_CI: "",
    CLAUDE_CONFIG_DIR: "",
    CODEX_HOME: "",
    XDG_CONFIG_HOME: "",
  };
}

/**
 * A registry of its own: storage, users and tokens in a fresh folder, so what one test publishes no other test sees.
 * Verdaccio runs in this process (its `runServer`): loaded once per test file, each further registry costs about a
 * quarter of a second of CPU, where a process of its own costs about 2.5 s.
 */
export async function startRegistry(): Promise<Registry> {
  const dir = tempDir("inter-registry-");
  writeFileSync(
    join(dir, "config.yaml"),
    [
      `storage: ${join(dir, "storage")}`,
      "auth:",
      "  htpasswd:",
      `    file: ${join(dir, "htpasswd")}`,
      "    max_users: 10",
      "uplinks: {}",
      "packages:",
      "  '**':",
      "    access: $all",
      "    publish: $authenticated",
      "    unpublish: $authenticated",
      "log: { type: stdout, format: json, level: error }",
      "",
    ].join("\n"),
  );
  const { runServer } = (await import("verdaccio")) as { runServer(config: string): Promise<Server> };
  const server = await runServer(join(dir, "config.yaml"));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  const stop = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  const created = await fetch(`${url}-/user/org.couchdb.user:publisher`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "publisher", password: "publisher-password-1" }),
  });
  const { token } = (await created.json()) as { token?: string };
  if (!token) {
    await stop();
    throw new Error(`verdaccio created no user (HTTP ${created.status})`);
  }
  let homes = 0;
  const envFor = (at: string, withToken: boolean) => {
    const home = join(dir, `home-${homes++}`);
    mkdirSync(home, { recursive: true });
    writeFileSync(
      join(home, ".npmrc"),
      `registry=${at}\n${withToken ? `//${new URL(at).host}/:_authToken=${token}\n` : ""}`,
    );
    return npmEnv(home, join(dir, "cache"), at);
  };
  const env = envFor(url, true);
  return { url, home: env.HOME!, env, envFor, stop };
}

/**
 * A registry that misbehaves when asked to publish: in front of a real one, it passes reads through, and answers a
 * publish (PUT) with HTTP 500, or never answers it — after storing it upstream (`store-then-hang`) or not (`hang`).
 */
export async function faultyRegistry(
  upstream: string,
  fault: "500" | "hang" | "store-then-hang",
): Promise<{ url: string; stop(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const target = new URL(upstream);
  const forward = (req: IncomingMessage, body: Buffer, res?: ServerResponse) =>
    new Promise<void>((done) => {
      const out = request(
        {
          host: target.hostname,
          port: target.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: target.host },
        },
        (answer) => {
          if (res) {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          } else answer.resume();
          answer.on("end", done);
        },
      );
      out.on("error", () => done());
      out.end(body);
    });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      if (req.method !== "PUT") return void forward(req, body, res);
      if (fault === "500") {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: "internal server error" }));
      } else if (fault === "store-then-hang") void forward(req, body);
      // "hang": never answered, never stored.
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/`,
    async stop() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
