/**
 * The one place a project's paths are named, each relative to the project root and derived from its resolved config:
 * where the build writes the candidate (targets.cli.outDir, dist/ by default), the overlay, and inter's own state
 * folder with its build intermediates, cache, inspection probes, trigger drafts and no-op records. Pipeline tasks, the
 * candidate lookup (cli/candidate-lookup.ts), `inter status` and the commands read them here.
 */
import { dirname, join } from "node:path";
import type { InterConfig } from "./types.js";

/** inter's state in every project (gitignored by `inter init`): intermediates, cache, records. */
export const STATE_DIR = ".intermesh";

/** Where built-in tasks keep intermediate results (cached and restored like any output). */
export const BUILD_DIR = `${STATE_DIR}/build`;

/** Where a config file is compiled before it loads: the config cannot name it. */
export const CONFIG_BUILD_DIR = `${STATE_DIR}/config`;

/** Where the no-op fast path keeps its record of a build (cli/noop-record.ts). */
export const NOOP_DIR = `${STATE_DIR}/noop`;

/** The last inspection's probes, kept beside the cache for reuse (stages/inspect/probe-reuse.ts). */
export const PROBES_FILE = `${STATE_DIR}/inspect/probes.json`;

/** Where `inter eval new` caches the design model's trigger query drafts. */
export const TRIGGER_DRAFTS_DIR = `${STATE_DIR}/trigger-drafts`;

/** The output folder's default (targets.cli.outDir): the layout `inter init` makes. */
export const DEFAULT_OUT_DIR = "dist";

export interface ProjectPaths {
  /** targets.cli.outDir without a trailing slash. */
  outDir: string;
  /** The candidate the bundle task writes. */
  candidate: string;
  /** capabilities.json, the complete plan of the CLI. */
  capabilities: string;
  /** The unpacked package the emit task writes. */
  packageDir: string;
  /** The inspection receipt. */
  receipt: string;
  /** The build's evaluation run folder. */
  evalDir: string;
  /** design.overlay: the reviewed design overlay. */
  overlay: string;
  /** cache.dir: the local build cache. */
  cacheDir: string;
}

/**
 * What lies beside a candidate, wherever it is (a build's output folder, an evaluation folder, a downloaded release):
 * its inspection receipt and its evaluation's results.
 */
export const besideCandidate = (candidate: string) => ({
  receipt: join(dirname(candidate), "receipt.json"),
  results: join(dirname(candidate), "eval", "results.json"),
});

/** Every project-relative path the config decides. */
export function projectPaths(config: InterConfig): ProjectPaths {
  const outDir = (config.targets?.cli?.outDir ?? DEFAULT_OUT_DIR).replace(/\/+$/, "");
  return {
    outDir,
    candidate: `${outDir}/cli.tgz`,
    capabilities: `${outDir}/capabilities.json`,
    packageDir: `${outDir}/package`,
    receipt: `${outDir}/receipt.json`,
    evalDir: `${outDir}/eval`,
    overlay: config.design?.overlay ?? "intermesh.overlay.json",
    cacheDir: config.cache?.dir ?? `${STATE_DIR}/cache`,
  };
}
