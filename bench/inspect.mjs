// How long inspection takes: cold (install + every probe + judging, through `inter inspect`) and as part of a build
// where the candidate did not change (a cache hit), against `node -e 0` measured in the same run.
import { join, resolve } from "node:path";
import { builtExample, compare, printTable, timeOnce } from "./lib.mjs";

const repo = resolve(import.meta.dirname, "..");
const inter = join(repo, "bin/inter.mjs");
const env = { ...process.env, CI: "true", ROOMS_API_KEY: "rooms-demo-key" };
const project = await builtExample(repo, env);

const medians = compare(
  {
    "node -e 0": () => timeOnce(["node", "-e", "0"]),
    "inter inspect dist/cli.tgz (cold, no API)": () => timeOnce(["node", inter, "inspect", "dist/cli.tgz", "--json"], { cwd: project, env }),
    "inter build, candidate unchanged (inspect cached)": () => timeOnce(["node", inter, "build"], { cwd: project, env }),
  },
  { runs: 5, warmup: 1 },
);
printTable("inspection", medians, "node -e 0");
