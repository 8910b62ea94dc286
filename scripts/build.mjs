// Bundles the CLI into a few files so `inter` starts without resolving hundreds of modules; heavy, rarely needed
// parts (progress UI, glob engine, subprocesses) are split into chunks loaded on first use.
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as shipped from "./shipped-bundles.mjs";
import { sourceHash } from "./source-hash.mjs";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const repo = fileURLToPath(new URL("..", import.meta.url));

// The build id joins every cache key: a rebuilt inter never reuses results made by different code.
const buildId = sourceHash(repo);

// A lib/ stamped with this source's id is this build already; rebuilding it would only pull files from under a test
// run or an `inter` that is using them (`npm test` builds first, and two runs may share a checkout). --force rebuilds.
const stampFile = join(repo, "lib", "build-id");
if (!process.argv.includes("--force") && existsSync(stampFile) && readFileSync(stampFile, "utf8").trim() === buildId) {
  console.log("lib/ is up to date with the source (node scripts/build.mjs --force rebuilds it)");
  process.exit(0);
}

// Built beside lib/ and swapped in whole at the end: a process running the old lib/ never sees a half-written one.
const out = join(repo, `lib.building-${process.pid}`);
rmSync(out, { recursive: true, force: true });

/**
 * clipanion builds its default context when it loads: it touches process.stdin (costly when stdin is a file or
 * /dev/null, as for agents and CI) and loads tty to ask for a colour depth. inter reads neither (colours are off and no
 * command takes the context's stdin), so the bundle drops both. Each edit must apply: a clipanion upgrade that moves
 * them fails the build instead of silently starting slower.
 */
const lazyStdio = {
  name: "clipanion-lazy-stdio",
  setup(b) {
    b.onLoad({ filter: /clipanion[\\/]lib[\\/]advanced[\\/]Cli\.mjs$/ }, async (args) => {
      let text = await readFile(args.path, "utf8");
      for (const [from, to] of [
        ["stdin: process.stdin,", ""],
        ["colorDepth: getDefaultColorDepth(),", "colorDepth: 1,"],
        ["from '../platform';", "from '../platform/browser.mjs';"],
      ]) {
        if (!text.includes(from))
          throw new Error(`clipanion's Cli.mjs no longer contains ${from}; revisit scripts/build.mjs`);
        text = text.replace(from, to);
      }
      return { contents: text, loader: "js" };
    });
  },
};

await build({
  // The search index's worker (src/stages/emit/search-index.ts) is a module of its own that a worker thread loads.
  entryPoints: {
    cli: "src/cli/entry.ts",
    index: "src/index.ts",
    "search-index-worker": "src/stages/emit/search-index-worker.ts",
  },
  outdir: out,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20.19",
  // esbuild runs its own native binary, so it stays a normal dependency.
  external: ["esbuild"],
  // clipanion and typanion ship ES module builds without pointing to them; the ES builds tree-shake and skip the
  // CommonJS wrappers, which is a measurable part of every start.
  alias: {
    clipanion: "./node_modules/clipanion/lib/advanced/index.mjs",
    typanion: "./node_modules/typanion/lib/index.mjs",
  },
  plugins: [lazyStdio],
  define: { __INTER_VERSION__: JSON.stringify(pkg.version), __INTER_BUILD__: JSON.stringify(buildId) },
  banner: {
    js: "import { createRequire as __interRequire } from 'node:module'; const require = __interRequire(import.meta.url);",
  },
  chunkNames: "chunks/[name]-[hash]",
  legalComments: "none",
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: "warning",
});

// The warm no-op fast path (src/cli/noop-fast-path.ts): one self-contained module that bin/inter.cjs loads first,
// so a build with nothing to do reads one record and a few stats before anything else is loaded. CommonJS, as the
// entry is: neither starts Node's ES module loader.
await build({
  entryPoints: { noop: "src/cli/noop-fast-path.ts" },
  outdir: out,
  outExtension: { ".js": ".cjs" },
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20.19",
  define: { __INTER_VERSION__: JSON.stringify(pkg.version), __INTER_BUILD__: JSON.stringify(buildId) },
  legalComments: "none",
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: "warning",
});

// What ships inside every generated CLI (scripts/shipped-bundles.mjs): the runtime, the command search, the MCP server.
await build(shipped.runtime(out));
await build(shipped.search(out));
const mcp = await build({ ...shipped.mcp(out), metafile: true });
// The bundled packages' licences travel with their code, at the end of the file.
const bundled = [
  ...new Set(
    Object.keys(mcp.metafile.inputs)
      .map((path) => /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1])
      .filter(Boolean),
  ),
].sort();
const notices = bundled.map((dir) => {
  const { name, version, license } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const file = readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
  return `${name}@${version} (${license})\n${file ? readFileSync(join(dir, file), "utf8").trim() : ""}`;
});
const mcpFile = join(out, "mcp.cjs");
writeFileSync(
  mcpFile,
  `${readFileSync(mcpFile, "utf8")}\n/*! Bundled packages and their licences:\n\n${notices.join("\n\n").replaceAll("*/", "* /")}\n*/\n`,
);
// Validators compiled here with the options of src/core/json-schema.ts (ajv's standalone code), so a process that
// checks a schema loads a file instead of compiling one: the JSON Schema 2020-12 meta-schema (a cost in every process
// that checks a schema; each inspection checks the MCP tools' schemas), and each schema inter ships (schemas/), which
// every build's plan validation and every results, overlay or query file read would otherwise compile. A shipped
// schema's validator carries the hash of the file it was made from: one that no longer matches its file is not used
// (src/core/json-schema.ts).
{
  const require = createRequire(import.meta.url);
  const Ajv2020 = require("ajv/dist/2020.js").default;
  const standaloneCode = require("ajv/dist/standalone/index.js").default;
  const { _ } = require("ajv");
  const compiler = () => {
    const ajv = new Ajv2020({
      allErrors: true,
      strict: false,
      discriminator: true,
      code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
    });
    require("ajv-formats")(ajv);
    return ajv;
  };
  const meta = compiler();
  writeFileSync(
    join(out, "json-schema-2020-meta.cjs"),
    standaloneCode(meta, meta.getSchema("https://json-schema.org/draft/2020-12/schema")),
  );
  mkdirSync(join(out, "schemas"));
  for (const file of readdirSync(join(repo, "schemas"))
    .filter((f) => f.endsWith(".schema.json"))
    .sort()) {
    const text = readFileSync(join(repo, "schemas", file));
    const ajv = compiler();
    const code = standaloneCode(ajv, ajv.compile(JSON.parse(text.toString("utf8"))));
    const hash = createHash("sha256").update(text).digest("hex");
    writeFileSync(
      join(out, "schemas", file.replace(/\.schema\.json$/, ".cjs")),
      `${code}\nmodule.exports.sourceSha256 = ${JSON.stringify(hash)};\n`,
    );
  }
}
// The stamp test/global-setup.ts compares with the source, so tests never run a stale lib/.
writeFileSync(join(out, "build-id"), `${buildId}\n`);

const lib = join(repo, "lib");
const old = join(repo, `lib.old-${process.pid}`);
try {
  renameSync(lib, old);
} catch (error) {
  if (/** @type {NodeJS.ErrnoException} */ (error).code !== "ENOENT") throw error;
}
try {
  renameSync(out, lib);
} catch (error) {
  // Another build put its lib/ in place between the two renames: it is as new as this one.
  const { code } = /** @type {NodeJS.ErrnoException} */ (error);
  if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
  rmSync(out, { recursive: true, force: true });
}
rmSync(old, { recursive: true, force: true });
