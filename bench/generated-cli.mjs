// The generated CLI's start-up: `rooms --help` and a `rooms rooms list` call against the running example API, versus
// `node -e 0`, in one interleaved run. Budget: within 1.3× of `node -e 0`.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { builtExample, compare, printTable, timeOnce } from "./lib.mjs";

const repo = resolve(import.meta.dirname, "..");
const project = await builtExample(repo);
const prefix = mkdtempSync(join(tmpdir(), "inter-bench-install-"));
execFileSync(
  "npm",
  ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--prefix", prefix, join(project, "dist/cli.tgz")],
  { stdio: "ignore" },
);
const rooms = join(prefix, "node_modules", ".bin", "rooms");

const server = spawn("node", [join(repo, "examples/rooms/server.mjs"), "--port", "0"], {
  stdio: ["ignore", "pipe", "inherit"],
});
const url = await new Promise((ok) =>
  server.stdout.on("data", (c) => /listening on (\S+)/.test(String(c)) && ok(/listening on (\S+)/.exec(String(c))[1])),
);
// The CLI keeps its compiled runtime in the user's cache folder (src/stages/emit/cli-shim.ts): the bench's own.
const env = {
  ...process.env,
  ROOMS_BASE_URL: url,
  ROOMS_API_KEY: "rooms-demo-key",
  XDG_CACHE_HOME: join(prefix, "cache"),
};

try {
  const medians = compare({
    "node -e 0": () => timeOnce(["node", "-e", "0"]),
    "rooms --help": () => timeOnce([rooms, "--help"], { env }),
    "rooms rooms list (HTTP to the example API)": () => timeOnce([rooms, "rooms", "list"], { env }),
  });
  printTable("generated CLI start-up", medians, "node -e 0");
  for (const name of ["rooms --help", "rooms rooms list (HTTP to the example API)"]) {
    for (const kind of ["wall", "cpu"]) {
      const ratio = medians[name][kind] / medians["node -e 0"][kind];
      console.log(`  budget (${kind}) ${name}: ≤ 1.30× → ${ratio.toFixed(2)}× ${ratio <= 1.3 ? "met" : "MISSED"}`);
    }
  }
} finally {
  server.kill();
}
