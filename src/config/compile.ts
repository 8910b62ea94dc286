import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { writeFileAtomic } from "../core/atomic.js";

/**
 * Configs are TypeScript (or JS) that imports `intermesh` and maybe local helpers. esbuild bundles the config with
 * its local imports into one CommonJS module, cached under `.intermesh/config/` and keyed by the content of every file it
 * was built from, so a warm start is a single `import()` without loading any transpiler.
 */

export interface CompileError {
  message: string;
  file?: string;
  line?: number;
  column?: number;
}

interface Manifest {
  entry: string;
  inter: string;
  sources: Record<string, string>;
  output: string;
}

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

function fresh(manifest: Manifest, entry: string, version: string, cacheDir: string): boolean {
  if (manifest.entry !== entry || manifest.inter !== version || !existsSync(join(cacheDir, manifest.output)))
    return false;
  for (const [file, hash] of Object.entries(manifest.sources)) {
    try {
      if (digest(readFileSync(file)) !== hash) return false;
    } catch {
      return false;
    }
  }
  return true;
}

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
  try {
    const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as Manifest;
    if (fresh(manifest, entry, version, cacheDir))
      return { module: join(cacheDir, manifest.output), sources: Object.keys(manifest.sources) };
  } catch {
    // no usable cache: compile
  }

  const [esbuild, self] = await Promise.all([import("esbuild"), selfModule()]);
  const url = pathToFileURL(entry).href;
  let result;
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
        "import.meta.url": JSON.stringify(url),
        "import.meta.filename": JSON.stringify(entry),
        "import.meta.dirname": JSON.stringify(dirname(entry)),
      },
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
  }
  const code = result.outputFiles[0]!.text;
  const sources: Record<string, string> = {};
  const ownDir = dirname(self);
  for (const input of Object.keys(result.metafile.inputs)) {
    const abs = resolve(dirname(entry), input);
    // inter's own module is keyed by the version instead.
    if (!relative(ownDir, abs).startsWith("..")) continue;
    sources[abs] = digest(readFileSync(abs));
  }
  const output = `${digest(code).slice(0, 16)}.cjs`;
  writeFileAtomic(join(cacheDir, output), code);
  writeFileAtomic(manifestFile, JSON.stringify({ entry, inter: version, sources, output } satisfies Manifest));
  return { module: join(cacheDir, output), sources: Object.keys(sources) };
}
