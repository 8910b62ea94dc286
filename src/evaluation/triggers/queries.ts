import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { sha256 } from "../../core/hash.js";
import { InterError } from "../../core/errors.js";
import { shippedSchemaValidator } from "../../core/json-schema.js";

/** One request a person might type, and the Skill the agent should load for it (null: none of the candidate's). */
export interface TriggerQuery {
  query: string;
  expected_skill: string | null;
  split?: "train" | "test";
  draft?: boolean;
  note?: string;
}

export interface QuerySet {
  /** The files the set was read from, relative to where they were found. */
  files: string[];
  /** Per file (as shown in messages): the Skill it is about and the Skills its queries expect. */
  named: NamedSkills[];
  queries: TriggerQuery[];
  /** Any file or query still marked draft: nobody reviewed it yet. */
  draft: boolean;
  /** Over the queries as run (text, expected Skill, split), in order: what results are bound to. */
  hash: string;
}

/** The Skills one query-set file names: its `skill`, and every `expected_skill` of its queries. */
export interface NamedSkills {
  file: string;
  skill?: string;
  expected: string[];
}

/** Query sets are small; a file past this is not one. */
const MAX_BYTES = 4 * 1024 * 1024;

const invalid = (file: string, message: string, details: Record<string, unknown> = {}) =>
  new InterError(
    "TRIGGER_QUERIES_INVALID",
    `${file}: ${message}`,
    'A trigger query set is { "queries": [{ "query": "…", "expected_skill": "<skill>" | null }] } (schemas/trigger-queries.schema.json, docs/triggers.md).',
    { file, ...details },
  );

/** Reads and validates one query-set file; every finding is named by its place in the file. */
export async function readQueryFile(
  file: string,
  shown = file,
): Promise<{ queries: TriggerQuery[]; draft: boolean; skill?: string; schema?: string }> {
  if (!existsSync(file))
    throw new InterError(
      "INPUT_NOT_FOUND",
      `No trigger query set at ${shown}.`,
      "Draft one with `inter eval new FOLDER` (it writes trigger-queries/<skill>.json), or write one by hand (docs/triggers.md).",
      { file: shown },
    );
  if (statSync(file).size > MAX_BYTES) throw invalid(shown, `larger than ${MAX_BYTES} bytes`);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw invalid(shown, `not JSON (${(error as Error).message})`);
  }
  const check = await shippedSchemaValidator("trigger-queries");
  if (!check(value)) {
    // oneOf reports both branches; the top-level "must be object" is no finding for an array (a bare array is allowed),
    // nor "must be array" for an object: the other branch's findings are the useful ones.
    const other = Array.isArray(value) ? "object" : "array";
    const own = (check.errors ?? []).filter(
      (e) =>
        e.keyword !== "oneOf" &&
        !(e.instancePath === "" && e.keyword === "type" && (e.params as { type?: unknown }).type === other),
    );
    const errors = own.length ? own : (check.errors ?? []);
    const say = (e: (typeof errors)[number]) =>
      `${e.instancePath || "(top)"} ${e.message ?? e.keyword}${e.keyword === "enum" ? `: ${((e.params as { allowedValues?: unknown[] }).allowedValues ?? []).map((v) => JSON.stringify(v)).join(", ")}` : ""}`;
    const first = errors.find((e) => e.instancePath) ?? errors[0];
    throw invalid(shown, first ? say(first) : "not a trigger query set", { findings: [...new Set(errors.map(say))] });
  }
  const set = Array.isArray(value)
    ? { queries: value as TriggerQuery[] }
    : (value as { $schema?: string; queries: TriggerQuery[]; draft?: boolean; skill?: string });
  const schema = "$schema" in set ? set.$schema : undefined;
  return {
    queries: set.queries,
    draft: set.draft === true || set.queries.some((q) => q.draft === true),
    ...(set.skill ? { skill: set.skill } : {}),
    ...(schema ? { schema } : {}),
  };
}

/** What a query-set file names, for checking against the candidate's Skills. */
export const namedSkills = (file: string, set: { skill?: string; queries: TriggerQuery[] }): NamedSkills => ({
  file,
  ...(set.skill ? { skill: set.skill } : {}),
  expected: [...new Set(set.queries.map((q) => q.expected_skill).filter((s): s is string => s !== null))],
});

/** The query-set files of a folder (see loadQuerySet); a folder that is not there is named as such. */
export function querySetFiles(folder: string, given: string | undefined): string[] {
  if (given) return [given];
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new InterError(
      "INPUT_NOT_FOUND",
      `No folder at ${folder}.`,
      "Give the evaluation folder that holds trigger-queries/ (or trigger-queries.json), or a set with --queries FILE.",
      { path: folder },
    );
  const dir = join(folder, "trigger-queries");
  const files =
    existsSync(dir) && statSync(dir).isDirectory()
      ? readdirSync(dir)
          .filter((f) => f.endsWith(".json"))
          .sort()
          .map((f) => join(dir, f))
      : [join(folder, "trigger-queries.json")];
  if (!files.length)
    throw new InterError(
      "INPUT_NOT_FOUND",
      `${dir} holds no .json query set.`,
      "Draft them with `inter eval new FOLDER`, or give one with --queries FILE.",
      { file: dir },
    );
  return files;
}

/**
 * The query set of a folder: `--queries FILE`, else every `trigger-queries/*.json` (what `inter eval new` drafts,
 * one per Skill), else `trigger-queries.json`. The same query with the same expectation in two files runs once.
 */
export async function loadQuerySet(folder: string, given: string | undefined): Promise<QuerySet> {
  const files = querySetFiles(folder, given);
  const seen = new Set<string>();
  const queries: TriggerQuery[] = [];
  const named: NamedSkills[] = [];
  let draft = false;
  for (const file of files) {
    const shown = file.startsWith(folder) ? file.slice(folder.length + 1) || file : file;
    const set = await readQueryFile(file, shown);
    named.push(namedSkills(shown, set));
    draft ||= set.draft;
    for (const q of set.queries) {
      const key = JSON.stringify([q.query, q.expected_skill]);
      if (seen.has(key)) continue;
      seen.add(key);
      queries.push(q);
    }
  }
  return {
    files,
    named,
    queries,
    draft,
    hash: sha256(JSON.stringify(queries.map((q) => [q.query, q.expected_skill, q.split ?? "test"]))),
  };
}

/**
 * Refuses query sets that name a Skill the candidate does not have (its `skill` or an `expected_skill`): written for
 * another candidate, or a typo. The message names each file and what it names.
 */
export function checkNamedSkills(named: NamedSkills[], skills: string[]): void {
  const bad = named
    .map((n) => ({
      file: n.file,
      unknown: [...new Set([...(n.skill ? [n.skill] : []), ...n.expected])].filter((s) => !skills.includes(s)),
    }))
    .filter((b) => b.unknown.length);
  if (!bad.length) return;
  const unknown = [...new Set(bad.flatMap((b) => b.unknown))];
  throw new InterError(
    "TRIGGER_QUERIES_INVALID",
    `${bad.map((b) => `${b.file} names ${b.unknown.length > 1 ? "Skills" : "a Skill"} the candidate does not have: ${b.unknown.join(", ")}`).join("; ")}.`,
    `The candidate's Skills are ${skills.join(", ") || "none"}; fix the set's skill or expected_skill (null for none).`,
    { unknown, files: bad, skills },
  );
}
