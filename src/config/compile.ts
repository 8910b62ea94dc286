import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { writeFileAtomic } from "../core/atomic.js";

/**
 * Configs are TypeScript (or JS) that imports `intermesh` and maybe local helpers. esbuild bundles the config with
 * its local imports into one CommonJS module, cached under `.intermesh/config/` and keyed by the content of every file it
 * was built from, so a warm start is a single `import()` without loading any transpiler.
 *
 * The cache moves with the project: it names the project's files relative to the project folder, and the module finds
 * the config's folder from its own (`import.meta.*` are computed when it loads, not written into it). A project copied
 * or restored elsewhere with its `.intermesh/` — a CI checkout at another path, a copied example — starts warm instead of
 * starting esbuild again.
 */

export interface CompileError {
  message: string;
  file?: string;
  line?: number;
  column?: number;
}

interface Manifest {
  /** The config file, relative to the project folder. */
  entry: string;
  inter: string;
  /** The `intermesh` module the config was bundled against (its path is in the module). */
  self: string;
  /** Each source's sha1, by its path relative to the project folder. */
  sources: Record<string, string>;
  output: string;
}

/** The names the compiled module gives `import.meta.*`, defined by its first lines (`locate`). */
const META = { url: "__interConfigUrl", filename: "__interConfigFile", dirname: "__interConfigDir" } as const;

/**
 * The module's first lines: the config's folder from the module's own (`cacheDir` lies at a fixed place in the project,
 * src/config/project-paths.ts), so the same bytes serve the project wherever it is.
 */
function locate(entry: string, cacheDir: string): string {
  const up = JSON.stringify(relative(cacheDir, dirname(entry)));
  return [
    `const ${META.dirname} = require("node:path").resolve(__dirname, ${up});`,
    `const ${META.filename} = require("node:path").join(${META.dirname}, ${JSON.stringify(basename(entry))});`,
    `const ${META.url} = require("node:url").pathToFileURL(${META.filename}).href;`,
  ].join("\n");
}

/**
 * A source's name in the manifest, and back: relative to the project folder, as esbuild resolved it — a helper in a
 * sibling folder of a monorepo (`../shared/x.ts`) is checked where the moved project would import it from, not where
 * the old checkout kept it.
 */
const nameOf = (project: string, file: string) => relative(project, file);
const fileOf = (project: string, name: string) => resolve(project, name);

const digest = (data: string | Buffer) => createHash("sha1").update(data).digest("hex");

/** `intermesh` in a config is always this running copy, so configs work without a local install. */
async function selfModule(): Promise<string> {
  // This code may sit in lib/, lib/chunks/ (bundled) or src/config/ (tests of the source). Only a cold compile asks.
  const { shippedFile } = await import("../core/shipped-files.js");
  try {
    return shippedFile("lib/index.js");
  } catch {
    return fileURLToPath(new URL("../index.ts", import.meta.url));
  }
}

function fresh(manifest: Manifest, entry: string, version: string, self: string, cacheDir: string): boolean {
  const project = dirname(entry);
  if (
    manifest.entry !== nameOf(project, entry) ||
    manifest.inter !== version ||
    manifest.self !== self ||
    !existsSync(join(cacheDir, manifest.output))
  )
    return false;
  for (const [name, hash] of Object.entries(manifest.sources)) {
    try {
      if (digest(readFileSync(fileOf(project, name))) !== hash) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/** Compiles under way in this process (compileConfig stops esbuild's service when the last one ends). */
let compiling = 0;

/**
 * Returns the path of a CommonJS module equivalent to the config, compiling it when any of its sources changed, and
 * the files it was built from (the watcher follows them).
 */
export async function compileConfig(
  entry: string,
  cacheDir: string,
  version: string,
): Promise<{ module: string; sources: string[] }> {
  const manifestFile = join(cacheDir, "manifest.json");
  const project = dirname(entry);
  const self = await selfModule();
  try {
    const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as Manifest;
    if (fresh(manifest, entry, version, self, cacheDir))
      return {
        module: join(cacheDir, manifest.output),
        sources: Object.keys(manifest.sources).map((name) => fileOf(project, name)),
      };
  } catch {
    // no usable cache: compile
  }

  // Required, not imported: esbuild is CommonJS, and an ES import of it has Node's loader first scan its whole source
  // for export names, work a require skips (on the first build of every project and after every config edit).
  const esbuild = createRequire(import.meta.url)("esbuild") as typeof import("esbuild");
  let result;
  compiling++;
  try {
    result = await esbuild.build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      metafile: true,
      // CommonJS so a warm start `require`s it without starting Node's ES module loader.
      format: "cjs",
      platform: "node",
      target: "node20",
      packages: "external",
      alias: { intermesh: self },
      define: {
        "import.meta.url": META.url,
        "import.meta.filename": META.filename,
        "import.meta.dirname": META.dirname,
      },
      banner: { js: locate(entry, cacheDir) },
      absWorkingDir: dirname(entry),
      logLevel: "silent",
    });
  } catch (error) {
    const tla = (error as Error).message.includes("Top-level await");
    const first = (
      error as { errors?: Array<{ text: string; location?: { file: string; line: number; column: number } | null }> }
    ).errors?.[0];
    const compileError: CompileError = first
      ? {
          message: tla
            ? "top-level await is not supported in the config; do async work inside a task instead"
            : first.text,
          file: first.location ? resolve(dirname(entry), first.location.file) : entry,
          line: first.location?.line,
          column: first.location ? first.location.column + 1 : undefined,
        }
      : { message: (error as Error).message, file: entry };
    throw Object.assign(new Error(compileError.message), { compileError });
  } finally {
    // esbuild's service process is not needed until a config changes: stopped once no compile is in flight (two
    // projects' configs may compile at once), it is reaped by this process, not left for the system's first process
    // to reap after inter exits (a container's may never do it). The next compile starts a new one.
    if (--compiling === 0) await esbuild.stop();
  }
  const code = result.outputFiles[0]!.text;
  const sources: Record<string, string> = {};
  const ownDir = dirname(self);
  for (const input of Object.keys(result.metafile.inputs)) {
    const abs = resolve(dirname(entry), input);
    // inter's own module is keyed by the version instead.
    if (!relative(ownDir, abs).startsWith("..")) continue;
    sources[nameOf(project, abs)] = digest(readFileSync(abs));
  }
  const output = `${digest(code).slice(0, 16)}.cjs`;
  writeFileAtomic(join(cacheDir, output), code);
  writeFileAtomic(
    manifestFile,
    JSON.stringify({ entry: nameOf(project, entry), inter: version, self, sources, output } satisfies Manifest),
  );
  return { module: join(cacheDir, output), sources: Object.keys(sources).map((name) => fileOf(project, name)) };
}
