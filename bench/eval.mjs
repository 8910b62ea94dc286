// The example evaluation end to end (`inter run eval`: upstream cached, services started, three attempts with the
// reference agent), and the recording shim's per-call overhead: the candidate called through the shim an evaluation
// wrote versus called directly, interleaved in one run. Budget (DESIGN.md §11): shim overhead under 20 ms per call.
import { join, resolve } from "node:path";
import { builtExample, compare, median, printTable, timeOnce } from "./lib.mjs";

const repo = resolve(import.meta.dirname, "..");
const inter = join(repo, "bin/inter.mjs");
const env = { ...process.env, CI: "true", ROOMS_API_KEY: "rooms-demo-key" };
const project = await builtExample(repo, env);

const runs = Array.from({ length: 3 }, () => timeOnce(["node", inter, "run", "eval"], { cwd: project, env }).wall);
console.log(`\ninter run eval on the example (3 scenarios, reference agent, upstream cached): median ${median(runs).toFixed(0)} ms (${runs.map((r) => r.toFixed(0)).join(", ")})`);

const workspace = join(project, "dist/eval/attempts/book-a-room-1");
const shim = join(workspace, "bin/rooms");
const direct = join(workspace, "cli/node_modules/.bin/rooms");
const medians = compare({
  "rooms --help (direct)": () => timeOnce([direct, "--help"]),
  "rooms --help (through the recording shim)": () => timeOnce([shim, "--help"]),
});
printTable("recording shim", medians, "rooms --help (direct)");
for (const kind of ["wall", "cpu"]) {
  const overhead = medians["rooms --help (through the recording shim)"][kind] - medians["rooms --help (direct)"][kind];
  console.log(`  shim overhead per call (${kind}): ${overhead.toFixed(1)} ms → budget < 20 ms ${overhead < 20 ? "met" : "MISSED"}`);
}
