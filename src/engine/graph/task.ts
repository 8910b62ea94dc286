import type { OutputEntry } from "../cache/store.js";

export interface DepResult {
  data: unknown;
  outputs: OutputEntry[];
}

export interface TaskContext {
  root: string;
  /**
   * The task's slice of the config — exactly its `config` field, which its key is computed from — so nothing a task
   * reads from the config can change without its key changing.
   */
  slice: unknown;
  signal: AbortSignal;
  /** Results of this task's dependencies, whether they ran or came from the cache. */
  deps: Record<string, DepResult>;
  /** Declared input files (project-relative) → content hash, as fingerprinted. */
  inputs: Record<string, string>;
  /** A line of task output, shown live and kept for failures. */
  log(line: string): void;
  /** `--force`: the task's own reuse of earlier work (inspection's probes) is off too. */
  force: boolean;
  /** The running inter's version and build (what receipts and results record). */
  interVersion: string;
}

export interface TaskResult {
  data?: unknown;
  /**
   * Files the task read beyond its declared inputs (e.g. documents reached through `$ref`), project-relative or
   * absolute. They join the fingerprint of the next run, so editing one is a miss.
   */
  reads?: string[];
  /** Shown after the run and replayed on every cache hit, so a cached build still reports them. */
  warnings?: string[];
}

export interface TaskSpec {
  id: string;
  kind: "builtin" | "command";
  description: string;
  /** Implementation version of a built-in; part of the fingerprint. */
  impl: string;
  deps: string[];
  /**
   * For dependencies whose output this task reads only in part: the part it uses. The fingerprint then keys on that
   * part, so a change elsewhere in the dependency's output is not a miss for this task.
   */
  uses?: Record<string, (dep: DepResult) => unknown>;
  /** The config slice this task reads; part of the fingerprint. */
  config: unknown;
  /** Globs of input files, relative to the project root. */
  inputs: string[];
  /** Globs of files the task writes, relative to the project root; stored in and restored from the cache. */
  outputs: string[];
  /**
   * Environment variable names whose values key the cache; a name ending in `*` stands for every variable it
   * prefixes (a CLI's credential variables, whose names only the design knows).
   */
  env: string[];
  /** false for tasks that are not hermetic (the evaluation): they run every time they are asked for. */
  cache?: false;
  run(ctx: TaskContext): Promise<TaskResult>;
}

export interface Graph {
  tasks: Map<string, TaskSpec>;
  /** Named entry points (`cli`, `eval`) → task ids. */
  targets: Record<string, string[]>;
}
