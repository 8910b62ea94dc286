/** The ignore file of `inter diff` (schemas/diff-ignore.schema.json): accepted changes, each with its reason. */
import { readFileSync, statSync } from "node:fs";
import { InterError } from "../core/errors.js";
import { shippedSchemaValidator } from "../core/json-schema.js";
import type { SurfaceChange } from "./changes.js";

export interface IgnoreEntry {
  change: string;
  reason: string;
}

const MAX_BYTES = 1024 * 1024;

const invalid = (file: string, problem: string, details: Record<string, unknown> = {}) =>
  new InterError(
    "DIFF_IGNORE_INVALID",
    `${file}: ${problem}`,
    "Each entry of `accept` needs `change` (an id `inter diff` printed) and a `reason`; see docs/diff.md.",
    { file, ...details },
  );

/** Reads and validates an ignore file (JSON or YAML). */
export async function loadIgnoreFile(path: string, label = path): Promise<IgnoreEntry[]> {
  let text: string;
  try {
    if (statSync(path).size > MAX_BYTES) throw invalid(label, `over ${MAX_BYTES} bytes.`);
    text = readFileSync(path, "utf8");
  } catch (error) {
    if (error instanceof InterError) throw error;
    throw new InterError(
      "INPUT_NOT_FOUND",
      `The ignore file ${label} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`,
      "Name an existing file with --ignore.",
      { file: label },
    );
  }
  let value: unknown;
  try {
    const yaml = await import("yaml");
    // CommonJS under the bundle: parse sits on the default export there (as in stages/inspect/skills.ts).
    const parse = yaml.parse ?? (yaml as unknown as { default: typeof yaml }).default.parse;
    value = parse(text, { maxAliasCount: 100 });
  } catch (error) {
    throw invalid(label, `not JSON or YAML (${(error as Error).message.split("\n")[0]}).`);
  }
  const validate = await shippedSchemaValidator("diff-ignore");
  if (!validate(value)) {
    const errors = (validate.errors ?? []).map(
      (e) =>
        `${e.instancePath || "/"} ${e.message ?? e.keyword}${e.params.missingProperty ? ` (${e.params.missingProperty})` : ""}${e.params.additionalProperty ? ` (${e.params.additionalProperty})` : ""}`,
    );
    throw invalid(label, `${errors[0]}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ""}.`, { errors });
  }
  return (value as { accept: IgnoreEntry[] }).accept;
}

export interface Accepted {
  changes: Array<SurfaceChange & { accepted?: string }>;
  /** Entries that matched no change: the change they accepted is gone, or the id has a typo. */
  unused: IgnoreEntry[];
}

export function applyIgnore(changes: SurfaceChange[], entries: IgnoreEntry[]): Accepted {
  const byId = new Map(entries.map((e) => [e.change.trim(), e]));
  const used = new Set<IgnoreEntry>();
  const marked = changes.map((c) => {
    const entry = byId.get(c.id);
    if (!entry) return c;
    used.add(entry);
    return { ...c, accepted: entry.reason };
  });
  return { changes: marked, unused: entries.filter((e) => !used.has(e)) };
}
