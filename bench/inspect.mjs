// How long inspection takes: cold (install + every probe + judging, through `inter inspect`) and as part of a build
// where the candidate did not change (a cache hit), against `node -e 0` measured in the same run.
import { resolve } from "node:path";
import { builtExample, compare, interBin, printTable, timeOnce } from "./lib.mjs";

const repo = resolve(import.meta.dirname, "..");
const inter = interBin(repo);
const env = { ...process.env, CI: "true", ROOMS_API_KEY: "rooms-demo-key" };
const project = await builtExample(repo, env);

const medians = compare(
  {
    "node -e 0": () => timeOnce(["node", "-e", "0"]),
    "inter inspect dist/cli.tgz (cold, no API)": () =>
      timeOnce(["node", inter, "inspect", "dist/cli.tgz", "--json"], { cwd: project, env }),
    "inter build, candidate unchanged (inspect cached)": () =>
      timeOnce(["node", inter, "build"], { cwd: project, env }),
  },
  { runs: 5, warmup: 1 },
);
printTable("inspection", medians, "node -e 0");

// A forced inspection with the example's service, timed from outside (start to exit) beside the duration inter reports:
// the difference is Node's start, loading the config, and any lag after the work is done (issue #21: a service's
// grace timer once held every such run open for 3 s after its last task).
const { spawnSync } = await import("node:child_process");
const lags = [];
for (let i = 0; i < 5; i++) {
  const started = performance.now();
  const run = spawnSync("node", [inter, "run", "inspect", "--force", "--json"], {
    cwd: project,
    env,
    encoding: "utf8",
  });
  const wall = performance.now() - started;
  const reported = JSON.parse(run.stdout).data.summary.durationMs;
  lags.push({ wall, reported });
}
const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const wall = med(lags.map((l) => l.wall));
const reported = med(lags.map((l) => l.reported));
console.log(
  `\ninter run inspect --force (with the service): whole process ${wall.toFixed(0)} ms, reported ${reported.toFixed(0)} ms, difference ${(wall - reported).toFixed(0)} ms   budget ≤ 400 ms: ${wall - reported <= 400 ? "met" : "MISSED"}`,
);
