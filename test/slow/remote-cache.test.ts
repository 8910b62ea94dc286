import { execa, type ResultPromise } from "execa";
import { cpSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  config,
  inter,
  makeProject,
  nodeCommand,
  REPO,
  spawnInter,
  statuses,
  until,
  tempDir,
  type InterResult,
} from "../helpers.js";
import { exampleProject } from "../e2e/example-api.js";
import type { TaskOutcome } from "../../src/engine/graph/outcome.js";
import type { OutputEntry } from "../../src/engine/cache/store.js";

const TOKEN = "remote-cache-test-token-4f1c";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

type CacheServer = { url: string; storage: string; stop(): Promise<void> };

/**
 * The real turborepo-remote-cache server (a dev dependency) on a loopback port, storing artifacts in a folder of its
 * own, one folder per team: empty, or holding a copy of `from` (another team's stored artifacts, signatures included).
 * `tags: false`: it keeps and serves no signatures.
 */
async function startCacheServer(options: { tags?: boolean; from?: Remote } = {}): Promise<CacheServer> {
  const { tags = true } = options;
  const port = await freePort();
  const storage = tempDir("inter-remote-storage-");
  if (options.from) cpSync(options.from.stored, join(storage, options.from.team), { recursive: true });
  const child: ResultPromise = execa("node", [join(REPO, "node_modules/turborepo-remote-cache/dist/cli.js")], {
    // With a signature key set the server keeps each artifact's x-artifact-tag (it never checks it: clients do).
    env: {
      HOST: "127.0.0.1",
      PORT: String(port),
      TURBO_TOKEN: TOKEN,
      ...(tags ? { TURBO_REMOTE_CACHE_SIGNATURE_KEY: "the-server-stores-tags" } : {}),
      STORAGE_PROVIDER: "local",
      STORAGE_PATH: storage,
      STORAGE_PATH_USE_TMP_FOLDER: "false",
      LOG_LEVEL: "error",
    },
    reject: false,
  });
  const url = `http://127.0.0.1:${port}`;
  // Sized for a loaded two-core machine: the server loads for a few seconds of CPU.
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      const response = await fetch(`${url}/v8/artifacts/status`, { headers: { authorization: `Bearer ${TOKEN}` } });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("turborepo-remote-cache did not start within 90 s");
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    storage,
    async stop() {
      child.kill("SIGTERM");
      await child;
    },
  };
}

/** A team of one test's own on a server the file shares: what it stores, corrupts or overwrites no other test sees. */
interface Remote {
  url: string;
  team: string;
  /** The folder the server keeps this team's artifacts in. */
  stored: string;
}

/**
 * One server that keeps signatures and one that keeps none, started by the first test that asks and shared by the
 * file's tests, each in a team of its own (the server keeps each team's artifacts in a folder of its own): a server
 * costs about two seconds of CPU to start. A signature covers its team, so signed artifacts are never copied to another
 * team: a test that changes the seed's gets a server of its own (`withOwnSeededServer`).
 */
const servers = new Map<boolean, Promise<CacheServer>>();
afterAll(async () => {
  for (const server of servers.values()) await server.then((s) => s.stop()).catch(() => undefined);
});
let teams = 0;

/**
 * A new team on the shared server that keeps signatures (`tags: false`: on the one that keeps none), holding a copy of
 * `from`'s artifacts.
 */
async function ownTeam(options: { tags?: boolean; from?: Remote } = {}): Promise<Remote> {
  const tags = options.tags ?? true;
  if (!servers.has(tags)) servers.set(tags, startCacheServer({ tags }));
  const server = await servers.get(tags)!;
  teams += 1;
  const team = `team_test${teams}`;
  const stored = join(server.storage, team);
  if (options.from) cpSync(options.from.stored, stored, { recursive: true });
  return { url: server.url, team, stored };
}

const SIGNING_KEY = "remote-cache-test-signing-key";
const remoteEnv = (remote: Remote, extra: Record<string, string> = {}) => ({
  INTER_REMOTE_CACHE_URL: remote.url,
  INTER_REMOTE_CACHE_TEAM: remote.team,
  INTER_REMOTE_CACHE_TOKEN: TOKEN,
  INTER_REMOTE_CACHE_SIGNATURE_KEY: SIGNING_KEY,
  ...extra,
});
/** Unsigned use of a server that keeps no tags, as a team that opts in: what an attacker with write access can plant. */
const unsignedEnv = (remote: Remote, trust = true) => ({
  INTER_REMOTE_CACHE_URL: remote.url,
  INTER_REMOTE_CACHE_TEAM: remote.team,
  INTER_REMOTE_CACHE_TOKEN: TOKEN,
  ...(trust ? { INTER_REMOTE_CACHE_TRUST: "unsigned" } : {}),
});
const sources = (outcome: InterResult) =>
  Object.fromEntries(
    outcome.json.data.tasks.map((t: TaskOutcome) => [t.id, t.status === "cached" ? `cached:${t.source}` : t.status]),
  );
/** Every output file under dist/ (evaluation results aside) with its bytes. */
const distFiles = (dir: string) =>
  Object.fromEntries(
    readdirSync(join(dir, "dist"), { recursive: true, encoding: "utf8" })
      .filter((f) => !f.startsWith("eval") && statSync(join(dir, "dist", f)).isFile())
      .sort()
      .map((f) => [
        f,
        createHash("sha256")
          .update(readFileSync(join(dir, "dist", f)))
          .digest("hex"),
      ]),
  );

/** The example built once against a remote cache: the stored artifacts and the project, never changed afterwards. */
interface Seed {
  /** The cold build's `--json` document. */
  cold: InterResult["json"];
  /** The team on the shared signed server that holds its artifacts: only read (and the server asked not to change it). */
  remote: Remote;
  /** The project that built it, local cache and dist/ included: read it, or copy it before building in it. */
  project: string;
}

let seeding: Promise<Seed> | undefined;
/**
 * Made by the first test that asks, in whatever order they run, and only read afterwards: a test that changes a
 * populated remote's artifacts gets its own copy of the seed's, so what one test stores, corrupts or overwrites is never
 * seen by another.
 */
function seed(): Promise<Seed> {
  seeding ??= (async () => {
    const remote = await ownTeam();
    const project = exampleProject();
    const cold = await inter(project, ["build", "--json"], remoteEnv(remote));
    if (cold.exitCode !== 0) throw new Error(`the seed build failed: ${cold.stdout}${cold.stderr}`);
    return { cold: cold.json, remote, project };
  })();
  return seeding;
}

/**
 * The seed's team, for tests that only read it: builds that find every artifact there upload nothing (a client never
 * replaces an artifact that is present). `tags: false`: a team of the test's own holding a copy of the seed's artifacts
 * on the server that keeps and serves no signatures, as one without a signature key is — the same artifacts, unsigned.
 */
async function withSeededServer<T>(
  body: (remote: Remote, seeded: Seed) => Promise<T>,
  options: { tags?: boolean } = {},
): Promise<T> {
  const seeded = await seed();
  return body(options.tags === false ? await ownTeam({ from: seeded.remote, tags: false }) : seeded.remote, seeded);
}

/** A signed server of the test's own holding a copy of the seed's team, to change as it likes; stopped when `body` ends. */
async function withOwnSeededServer<T>(body: (remote: Remote, seeded: Seed) => Promise<T>): Promise<T> {
  const seeded = await seed();
  const server = await startCacheServer({ from: seeded.remote });
  try {
    return await body(
      { url: server.url, team: seeded.remote.team, stored: join(server.storage, seeded.remote.team) },
      seeded,
    );
  } finally {
    await server.stop();
  }
}

/**
 * The example, built once already (its local cache warm), with one task of its own added that no cache holds: a build
 * there asks the remote cache for that task alone and runs it, without the cold build's inspection.
 */
function warmExampleWithNewTask(): string {
  const dir = exampleProject({ warm: true });
  const file = join(dir, "intermesh.config.ts");
  const text = readFileSync(file, "utf8");
  const task = `tasks: { note: { command: ${nodeCommand(`require("fs").writeFileSync("note.out", "1")`)}, outputs: ["note.out"] } },`;
  if (!text.includes("\n  inputs:"))
    throw new Error("the example config has changed: no inputs field to add a task before");
  writeFileSync(file, text.replace("\n  inputs:", `\n  ${task}\n  inputs:`));
  return dir;
}

/** A copy of a project folder, so building in it changes nothing of the original. */
function copyProject(dir: string): string {
  const copy = join(makeProject({}), "p");
  cpSync(dir, copy, { recursive: true });
  return copy;
}

describe("the remote cache (Turborepo API, the real turborepo-remote-cache server)", () => {
  it("a second checkout with an empty local cache takes every task from the remote, with identical outputs", async () => {
    await withSeededServer(async (server, seeded) => {
      expect(seeded.cold.data.remote).toMatchObject({ hits: 0, errors: 0, warning: null });
      expect(seeded.cold.data.remote.uploads).toBeGreaterThanOrEqual(9);

      const second = exampleProject();
      const warm = await inter(second, ["build", "--json"], remoteEnv(server));
      expect(warm.exitCode, warm.stdout).toBe(0);
      expect(new Set(Object.values(sources(warm)))).toEqual(new Set(["cached:remote"]));
      expect(warm.json.data.remote).toMatchObject({ hits: 9, misses: 0, errors: 0 });
      const bundle = (doc: InterResult["json"]) =>
        doc.data.tasks.find((t: TaskOutcome) => t.id === "bundle").data.candidate;
      expect(bundle(warm.json)).toBe(bundle(seeded.cold));
      expect(distFiles(second)).toEqual(distFiles(seeded.project));
      // Now local: the next build needs nothing from the remote.
      const again = await inter(second, ["build", "--json"], remoteEnv(server));
      expect(new Set(Object.values(sources(again)))).toEqual(new Set(["cached:local"]));
    });
  });

  it("a client with another signing key is told so, uses nothing, and overwrites nothing", async () => {
    await withSeededServer(async (server) => {
      const other = await inter(
        exampleProject(),
        ["build", "--json"],
        remoteEnv(server, { INTER_REMOTE_CACHE_SIGNATURE_KEY: "another-signing-key" }),
      );
      expect(other.exitCode, other.stdout).toBe(0);
      expect(other.json.data.remote, JSON.stringify(other.json.data.remote)).toMatchObject({
        hits: 0,
        warning: expect.stringContaining("signature does not match INTER_REMOTE_CACHE_SIGNATURE_KEY"),
      });
      // The good artifacts are still there for everyone with the right key.
      const again = await inter(exampleProject(), ["build", "--json"], remoteEnv(server));
      expect(again.json.data.remote.hits).toBe(9);
    });
  });

  it("--remote-only ignores local records; --no-remote never asks the server", async () => {
    await withSeededServer(async (server, seeded) => {
      const dir = copyProject(seeded.project);
      const only = await inter(dir, ["build", "--remote-only", "--json"], remoteEnv(server));
      expect(new Set(Object.values(sources(only)))).toEqual(new Set(["cached:remote"]));
      const off = await inter(dir, ["build", "--no-remote", "--json"], remoteEnv(server));
      expect(off.json.data.remote).toBeUndefined();
      expect(new Set(Object.values(sources(off)))).toEqual(new Set(["cached:local"]));
    });
    const none = await inter(exampleProject(), ["build", "--remote-only", "--json"]);
    expect(none.json.error).toMatchObject({
      code: "USAGE_ERROR",
      message: expect.stringContaining("--remote-only needs a remote cache"),
    });
  }, 240_000);

  it("unsigned artifacts are not used unless the config trusts them: one warning that says why", async () => {
    const own = await ownTeam({ tags: false });
    expect(
      (await inter(exampleProject(), ["build", "--json"], unsignedEnv(own))).json.data.remote.uploads,
    ).toBeGreaterThanOrEqual(9);
    const run = await inter(exampleProject(), ["build", "--json"], unsignedEnv(own, false));
    expect(run.exitCode, run.stdout).toBe(0);
    expect(run.json.data.remote.hits).toBe(0);
    expect(run.json.data.remote.warning).toContain(
      'artifacts are not signed, so none is used (uploads go on). Set INTER_REMOTE_CACHE_SIGNATURE_KEY on every machine, or cache.remote.trust: "unsigned"',
    );
    const trusted = await inter(exampleProject(), ["build", "--json"], unsignedEnv(own));
    expect(trusted.json.data.remote.hits, JSON.stringify(sources(trusted))).toBe(9);
  });

  it("a poisoned remote writes nothing outside the project and gets no list of devices or folders hashed", async () => {
    await withSeededServer(
      async (own) => {
        const stored = own.stored;
        const { gunzipSync, gzipSync } = await import("node:zlib");
        // Every artifact rewritten to restore its first output to ../escape_remote.txt (valid objects, plausible records);
        // a record with no outputs writes nothing and stays a fair hit.
        let harmless = 0;
        for (const f of readdirSync(stored).filter((x) => !x.endsWith("-reads"))) {
          // A remote artifact as stored: the record (the part rewritten here) beside its objects.
          let parsed: { record?: { outputs?: OutputEntry[] } };
          try {
            parsed = JSON.parse(gunzipSync(readFileSync(join(stored, f))).toString("utf8"));
          } catch {
            continue;
          }
          if (!parsed.record?.outputs?.length) {
            harmless += 1;
            continue;
          }
          parsed.record.outputs[0]!.path = "../escape_remote.txt";
          writeFileSync(join(stored, f), gzipSync(JSON.stringify(parsed)));
        }
        // The openapi task's list of $ref'd files, pointed at a device that never ends and at a folder.
        const lists = readdirSync(stored).filter((x) => x.endsWith("-reads"));
        expect(lists.length).toBeGreaterThan(0);
        for (const f of lists) writeFileSync(join(stored, f), JSON.stringify(["/dev/zero", "/tmp"]));
        const parent = makeProject({});
        const dir = join(parent, "p");
        cpSync(exampleProject(), dir, { recursive: true });
        const run = await inter(dir, ["build", "--json"], unsignedEnv(own));
        expect(run.exitCode, run.stdout).toBe(0);
        expect(existsSync(join(parent, "escape_remote.txt"))).toBe(false);
        expect(run.json.data.remote.hits).toBe(harmless);
        expect(run.json.data.remote.warning).toMatch(
          /would write "\.\.\/escape_remote\.txt", outside the project|names paths outside the project or files that are not regular/,
        );
        expect(JSON.parse(readFileSync(join(dir, "dist/receipt.json"), "utf8")).certification.level).toBe(
          "Agent-Native",
        );
      },
      { tags: false },
    );
  });

  it("a corrupted artifact on the server is a miss, never wrong output", async () => {
    await withOwnSeededServer(async (server, seeded) => {
      const stored = server.stored;
      const artifacts = readdirSync(stored).filter((f) => !f.endsWith("-reads"));
      expect(artifacts.length).toBeGreaterThanOrEqual(9);
      for (const f of artifacts) writeFileSync(join(stored, f), readFileSync(join(stored, f)).subarray(0, 40));
      const third = exampleProject();
      const run = await inter(third, ["build", "--json"], remoteEnv(server));
      expect(run.exitCode, run.stdout).toBe(0);
      expect(run.json.data.remote).toMatchObject({ hits: 0, misses: 9, errors: 0 });
      expect(Object.values(sources(run)).every((s) => s === "ran")).toBe(true);
      // Rebuilt locally: the same candidate byte for byte; the receipt is a new inspection (its evidence has times).
      const { "receipt.json": receipt, ...rest } = distFiles(third);
      const { "receipt.json": _first, ...expected } = distFiles(seeded.project);
      expect(rest).toEqual(expected);
      expect(JSON.parse(readFileSync(join(third, "dist/receipt.json"), "utf8")).certification.level).toBe(
        "Agent-Native",
      );
      expect(receipt).toMatch(/^[0-9a-f]{64}$/);
    });
  });

  it("an invalid remote URL is CONFIG_INVALID naming where it came from, and a token inside a URL is never printed", async () => {
    const bad = await inter(exampleProject(), ["build", "--json"], {
      INTER_REMOTE_CACHE_URL: "cache.example.com:8080",
    });
    expect(bad.exitCode).toBe(2);
    expect(bad.json.error).toMatchObject({
      code: "CONFIG_INVALID",
      message: "INTER_REMOTE_CACHE_URL is not an http(s) URL.",
      details: { field: "INTER_REMOTE_CACHE_URL" },
    });
    const secret = "url-embedded-token-7c1d";
    const run = await inter(warmExampleWithNewTask(), ["build"], {
      INTER_REMOTE_CACHE_URL: `http://user:${secret}@127.0.0.1:9`,
      INTER_REMOTE_CACHE_TRUST: "unsigned",
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/⚠ remote cache http:\/\/127\.0\.0\.1:9 download failed/);
    expect(run.stdout + run.stderr).not.toContain(secret);
  });

  it("a wrong token: one warning, the build succeeds locally, and the token is never printed", async () => {
    const own = await ownTeam();
    const dir = warmExampleWithNewTask();
    const wrong = "wrong-token-value-9d2e";
    const run = await inter(dir, ["build"], remoteEnv(own, { INTER_REMOTE_CACHE_TOKEN: wrong }));
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr.match(/⚠ remote cache/g)).toHaveLength(1);
    expect(run.stderr).toMatch(
      /⚠ remote cache http:\/\/127\.0\.0\.1:\d+ download failed \(HTTP 401: the token was refused\); continuing with the local cache only/,
    );
    expect(run.stderr).toMatch(/remote cache http:\/\/127\.0\.0\.1:\d+: 0 hits, 0 misses, 0 uploads, 1 error\b/);
    expect(run.stdout + run.stderr).not.toContain(wrong);
    expect(run.stdout + run.stderr).not.toContain(TOKEN);
  });

  it.each([
    ["honours its timeout", "ends at the timeout: the build finishes locally with the warning", 0],
    ["ignores its timeout", "is an internal error, never a success that printed nothing", 1],
  ])("a request that never settles and %s %s", async (kind, _what, exitCode) => {
    // The config is trusted code in inter's own process: its fetch stands for a request whose socket went away without
    // a word, which left inter with nothing to wait on; Node then ended it at once with exit code 0 and no output.
    const never =
      kind === "honours its timeout"
        ? `new Promise((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason)))`
        : `new Promise(() => undefined)`;
    const dir = makeProject({
      "intermesh.config.ts": `import { defineConfig } from "intermesh";

globalThis.fetch = ((_url: unknown, init?: { signal?: AbortSignal }) => ${never}) as typeof fetch;

export default defineConfig({
  product: { name: "Rooms", binary: "rooms" },
  inputs: { openapi: "openapi.yaml" },
  cache: { remote: { url: "http://127.0.0.1:9", timeoutMs: 300, trust: "unsigned" } },
  tasks: { note: { command: ${nodeCommand(`require("fs").writeFileSync("note.out", "1")`)}, outputs: ["note.out"] } },
});
`,
    });
    cpSync(join(REPO, "examples/rooms/openapi.yaml"), join(dir, "openapi.yaml"));
    const run = await inter(dir, ["run", "note", "--json"]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(exitCode);
    if (exitCode === 0) {
      expect(run.json.data.remote).toMatchObject({ hits: 0, errors: 1 });
      expect(run.json.data.remote.warning).toBe(
        "remote cache http://127.0.0.1:9 download failed (no answer within 300 ms); continuing with the local cache only",
      );
      expect(readFileSync(join(dir, "note.out"), "utf8")).toBe("1");
    } else {
      expect(run.json.error).toMatchObject({
        code: "INTERNAL_ERROR",
        message: "inter stopped waiting on work that can no longer finish, so the command has no result.",
      });
    }
  });

  it("the server going away mid-build: the build finishes locally with the warning", async () => {
    const own = await startCacheServer();
    const dir = makeProject({
      "intermesh.config.ts": config(`{
  product: { name: "Rooms", binary: "rooms" },
  inputs: { openapi: "openapi.yaml" },
  tasks: {
    first: { command: ${nodeCommand(`require("fs").writeFileSync("first.out", "1")`)}, outputs: ["first.out"] },
    slow: { command: ${nodeCommand(`require("fs").writeFileSync("slow.started", "1"); setTimeout(() => require("fs").writeFileSync("slow.out", "2"), 1500)`)}, deps: ["first"], outputs: ["slow.out"] },
  },
}`),
    });
    cpSync(join(REPO, "examples/rooms/openapi.yaml"), join(dir, "openapi.yaml"));
    const child = spawnInter(dir, ["run", "slow", "--json"], {
      INTER_REMOTE_CACHE_URL: own.url,
      INTER_REMOTE_CACHE_TEAM: "team_going_away",
      INTER_REMOTE_CACHE_TOKEN: TOKEN,
    });
    await until(() => existsSync(join(dir, "slow.started")), 30_000, "the slow task starting");
    await own.stop();
    const result = await child;
    expect(result.exitCode, String(result.stdout)).toBe(0);
    const data = JSON.parse(String(result.stdout)).data;
    // statuses reads only the document, here the one a spawned run printed.
    expect(statuses({ json: { data } } as InterResult)).toMatchObject({ first: "ran", slow: "ran" });
    expect(data.remote.errors).toBeGreaterThanOrEqual(1);
    expect(data.remote.warning).toMatch(/upload failed .*continuing with the local cache only/);
    expect(readFileSync(join(dir, "slow.out"), "utf8")).toBe("2");
  });
});
