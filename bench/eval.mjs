// The evaluation as a user feels it, all whole-process times measured from outside:
// 1. `inter run eval` on the example (upstream cached, services fresh per attempt, three attempts, reference agent);
// 2. what sealing adds to an attempt: a bare evaluation whose agent does nothing, sealed (bubblewrap) against
//    unsealed (INTER_SANDBOX=none), interleaved — the attempts' median durations;
// 3. the broker's cost per call: `rooms --help` through the broker client, timed by an agent inside the attempt,
//    against the installed candidate run directly. Budgets: a sealed attempt adds under 150 ms, the
//    broker under 20 ms per call.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { builtExample, interBin, median, timeOnce } from "./lib.mjs";

const repo = resolve(import.meta.dirname, "..");
const inter = interBin(repo);
const env = { ...process.env, CI: "true", ROOMS_API_KEY: "rooms-demo-key" };
const project = await builtExample(repo, env);

const runs = Array.from({ length: 3 }, () => timeOnce(["node", inter, "run", "eval"], { cwd: project, env }).wall);
console.log(
  `\ninter run eval on the example (3 sealed attempts, reference agent, upstream cached): median ${median(runs).toFixed(0)} ms (${runs.map((r) => r.toFixed(0)).join(", ")})`,
);

// A bare folder whose plan points nowhere: the agents below never reach the API.
const folder = mkdtempSync(join(tmpdir(), "inter-bench-eval-"));
for (const f of ["dist/cli.tgz", "dist/receipt.json"]) copyFileSync(join(project, f), join(folder, f.split("/").pop()));
const plan = JSON.parse(readFileSync(join(project, "evals/eval-plan.json"), "utf8"));
plan.target.api_url = "http://127.0.0.1:9";
writeFileSync(join(folder, "eval-plan.json"), JSON.stringify(plan));

const attempts = (agent, sandbox) => {
  // These agents pass no check (exit 1, the gate): only the attempts' timings are read.
  spawnSync("node", [inter, "eval", "run", ".", "--agent-command", JSON.stringify(agent), "--fresh", "--json"], {
    cwd: folder,
    env: { ...env, ...(sandbox ? {} : { INTER_SANDBOX: "none" }) },
    stdio: "ignore",
  });
  return JSON.parse(readFileSync(join(folder, ".inter-eval/results.json"), "utf8")).attempts;
};
const durations = { sealed: [], unsealed: [] };
for (let i = 0; i < 5; i++) {
  for (const kind of ["sealed", "unsealed"])
    durations[kind].push(...attempts(["true"], kind === "sealed").map((a) => a.duration_ms));
}
const [sealed, unsealed] = [median(durations.sealed), median(durations.unsealed)];
console.log(`\nan attempt whose agent does nothing (${durations.sealed.length} each, interleaved):`);
console.log(
  `  unsealed ${unsealed.toFixed(0)} ms · sealed ${sealed.toFixed(0)} ms → sealing adds ${(sealed - unsealed).toFixed(0)} ms → budget < 150 ms ${sealed - unsealed < 150 ? "met" : "MISSED"}`,
);

// The agent times its own calls, from spawn to exit, as its shell would.
const timer = `const {spawnSync}=require("child_process");const t=[];for(let i=0;i<25;i++){const s=process.hrtime.bigint();spawnSync("rooms",["--help"],{stdio:"ignore"});t.push(Number(process.hrtime.bigint()-s)/1e6);}require("fs").writeFileSync("times.json",JSON.stringify(t.slice(5)));`;
const through = {};
for (const kind of ["sealed", "unsealed"]) {
  attempts(["node", "-e", timer], kind === "sealed");
  through[kind] = median(
    JSON.parse(readFileSync(join(folder, ".inter-eval/attempts/book-a-room-1/outputs/times.json"), "utf8")),
  );
}
// The candidate run directly with the environment the broker gives it (no NODE_OPTIONS or NODE_EXTRA_CA_CERTS,
// whose CA bundle alone costs ~60 ms per Node start).
const attemptDir = join(folder, ".inter-eval/attempts/book-a-room-1");
const cliEnv = {
  PATH: `${resolve(process.execPath, "..")}:/usr/bin:/bin`,
  HOME: join(attemptDir, "home"),
  TMPDIR: join(attemptDir, "tmp"),
  LANG: "C.UTF-8",
};
const direct = median(
  Array.from(
    { length: 20 },
    () => timeOnce([join(attemptDir, ".cli/node_modules/.bin/rooms"), "--help"], { env: cliEnv }).wall,
  ),
);
console.log(`\nrooms --help, median wall per call:`);
console.log(
  `  direct ${direct.toFixed(1)} ms · through the broker, unsealed ${through.unsealed.toFixed(1)} ms (${(through.unsealed / direct).toFixed(2)}×) · sealed ${through.sealed.toFixed(1)} ms (${(through.sealed / direct).toFixed(2)}×)`,
);
for (const kind of ["unsealed", "sealed"]) {
  const overhead = through[kind] - direct;
  console.log(
    `  broker overhead per call (${kind}): ${overhead.toFixed(1)} ms → budget < 20 ms ${overhead < 20 ? "met" : "MISSED"}`,
  );
}
