// The remote cache: a second checkout with an empty local cache against a cold local build of the same project,
// through the real turborepo-remote-cache server on loopback (a dev dependency). Medians of 3 rounds.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { interBin, median } from "./lib.mjs";

const repo = resolve(import.meta.dirname, "..");
const inter = interBin(repo);

const port = await new Promise((r) => {
  const s = createServer().listen(0, "127.0.0.1", () => {
    const { port } = /** @type {import("node:net").AddressInfo} */ (s.address());
    s.close(() => r(port));
  });
});
const storage = mkdtempSync(join(tmpdir(), "inter-bench-remote-"));
const server = spawn("node", [join(repo, "node_modules/turborepo-remote-cache/dist/cli.js")], {
  env: {
    ...process.env,
    HOST: "127.0.0.1",
    PORT: String(port),
    TURBO_TOKEN: "bench",
    TURBO_REMOTE_CACHE_SIGNATURE_KEY: "tags",
    STORAGE_PROVIDER: "local",
    STORAGE_PATH: storage,
    STORAGE_PATH_USE_TMP_FOLDER: "false",
    LOG_LEVEL: "error",
  },
  stdio: "ignore",
});
for (;;) {
  try {
    if (
      (await fetch(`http://127.0.0.1:${port}/v8/artifacts/status`, { headers: { authorization: "Bearer bench" } })).ok
    )
      break;
  } catch {}
  await new Promise((r) => setTimeout(r, 100));
}

const checkout = () => {
  const dir = mkdtempSync(join(tmpdir(), "inter-bench-checkout-"));
  for (const p of ["examples", "evals", "intermesh.config.ts"])
    cpSync(join(repo, p), join(dir, p), { recursive: true });
  return dir;
};
// A team per round gives each round an empty remote (the server remembers folders it made, so none is deleted).
const remote = (round) => ({
  INTER_REMOTE_CACHE_URL: `http://127.0.0.1:${port}`,
  INTER_REMOTE_CACHE_TEAM: `team_bench${round}`,
  INTER_REMOTE_CACHE_TOKEN: "bench",
  INTER_REMOTE_CACHE_SIGNATURE_KEY: "bench-signing-key",
});
const build = (dir, env) => {
  const started = process.hrtime.bigint();
  const out = execFileSync("node", [inter, "build", "--json"], {
    cwd: dir,
    env: { ...process.env, CI: "true", ...env },
    encoding: "utf8",
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { ms, data: JSON.parse(out).data };
};

const cold = [];
const second = [];
for (let round = 0; round < 3; round++) {
  const first = checkout();
  const filled = build(first, remote(round)); // fills the remote cache
  if (filled.data.remote.errors)
    throw new Error(`filling the remote cache failed: ${JSON.stringify(filled.data.remote)}`);
  const local = checkout();
  cold.push(build(local, {}).ms);
  const other = checkout();
  const warm = build(other, remote(round));
  if (warm.data.remote.hits !== warm.data.tasks.length)
    throw new Error(`expected every task from the remote: ${JSON.stringify(warm.data.remote)}`);
  second.push(warm.ms);
  for (const d of [first, local, other]) rmSync(d, { recursive: true, force: true });
}
server.kill();
const c = median(cold);
const s = median(second);
console.log(`cold local inter build of the example (no remote):          ${c.toFixed(0)} ms`);
console.log(
  `second checkout, empty local cache, every task a remote hit: ${s.toFixed(0)} ms  (${(s / c).toFixed(2)}× the cold build)`,
);
