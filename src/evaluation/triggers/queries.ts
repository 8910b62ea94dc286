import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { sha256 } from "../../core/hash.js";
import { InterError } from "../../core/errors.js";
import { compileSchema, type SchemaValidator } from "../../core/json-schema.js";
import { shippedFile } from "../../core/shipped-files.js";

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
  queries: TriggerQuery[];
  /** Any file or query still marked draft: nobody reviewed it yet. */
  draft: boolean;
  /** Over the queries as run (text, expected Skill, split), in order: what results are bound to. */
  hash: string;
}

/** Query sets are small; a file past this is not one. */
const MAX_BYTES = 4 * 1024 * 1024;

let validator: Promise<SchemaValidator> | undefined;
const validate = () => (validator ??= compileSchema(JSON.parse(readFileSync(shippedFile("schemas/trigger-queries.schema.json"), "utf8")) as object));

const invalid = (file: string, message: string, details: Record<string, unknown> = {}) =>
  new InterError("TRIGGER_QUERIES_INVALID", `${file}: ${message}`, "A trigger query set is { \"queries\": [{ \"query\": \"…\", \"expected_skill\": \"<skill>\" | null }] } (schemas/trigger-queries.schema.json, docs/triggers.md).", { file, ...details });

/** Reads and validates one query-set file; every finding is named by its place in the file. */
export async function readQueryFile(file: string, shown = file): Promise<{ queries: TriggerQuery[]; draft: boolean; skill?: string }> {
  if (!existsSync(file)) throw new InterError("INPUT_NOT_FOUND", `No trigger query set at ${shown}.`, "Draft one with `inter eval new FOLDER` (it writes trigger-queries/<skill>.json), or write one by hand (docs/triggers.md).", { file: shown });
  if (statSync(file).size > MAX_BYTES) throw invalid(shown, `larger than ${MAX_BYTES} bytes`);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw invalid(shown, `not JSON (${(error as Error).message})`);
  }
  const check = await validate();
  if (!check(value)) {
    // oneOf reports both branches; the object form's findings are the useful ones for an object, and vice versa.
    const errors = (check.errors ?? []).filter((e) => e.keyword !== "oneOf" && (Array.isArray(value) ? !String((e as { schemaPath?: string }).schemaPath).includes("/set") : true));
    const first = errors.find((e) => e.instancePath) ?? errors[0];
    const findings = errors.map((e) => `${e.instancePath || "(top)"} ${e.message ?? e.keyword}`);
    throw invalid(shown, `${first ? `${first.instancePath || "(top)"} ${first.message ?? first.keyword}` : "not a trigger query set"}`, { findings: [...new Set(findings)] });
  }
  const set = Array.isArray(value) ? { queries: value as TriggerQuery[] } : (value as { queries: TriggerQuery[]; draft?: boolean; skill?: string });
  return { queries: set.queries, draft: set.draft === true || set.queries.some((q) => q.draft === true), ...(set.skill ? { skill: set.skill } : {}) };
}

/**
 * The query set of a folder: `--queries FILE`, else every `trigger-queries/*.json` (what `inter eval new` drafts,
 * one per Skill), else `trigger-queries.json`. The same query with the same expectation in two files runs once.
 */
export async function loadQuerySet(folder: string, given: string | undefined): Promise<QuerySet> {
  const dir = join(folder, "trigger-queries");
  const files = given ? [given] : existsSync(dir) && statSync(dir).isDirectory() ? readdirSync(dir).filter((f) => f.endsWith(".json")).sort().map((f) => join(dir, f)) : [join(folder, "trigger-queries.json")];
  if (!files.length) throw new InterError("INPUT_NOT_FOUND", `${dir} holds no .json query set.`, "Draft them with `inter eval new FOLDER`, or give one with --queries FILE.", { file: dir });
  const seen = new Set<string>();
  const queries: TriggerQuery[] = [];
  let draft = false;
  for (const file of files) {
    const shown = file.startsWith(folder) ? file.slice(folder.length + 1) || file : file;
    const set = await readQueryFile(file, shown);
    draft ||= set.draft;
    for (const q of set.queries) {
      const key = JSON.stringify([q.query, q.expected_skill]);
      if (seen.has(key)) continue;
      seen.add(key);
      queries.push(q);
    }
  }
  return { files, queries, draft, hash: sha256(JSON.stringify(queries.map((q) => [q.query, q.expected_skill, q.split ?? "test"]))) };
}

/** Expected Skills the candidate does not have: the set was written for another candidate, or has a typo. */
export function unknownSkills(set: QuerySet, skills: string[]): string[] {
  return [...new Set(set.queries.map((q) => q.expected_skill).filter((s): s is string => s !== null && !skills.includes(s)))];
}
