import { isObj, ptr } from "./pointer.js";
import type { Rename } from "./findings.js";

/**
 * The overlay's renames as a plan meets them: a plan written against the rules' names (`rooms get`) names commands
 * the overlay renamed (`rooms show`). Read from the build's capabilities.json (`nameSource.renamed`), they explain
 * UNKNOWN_COMMAND findings and let `inter eval validate --fix-renames` rewrite the plan.
 */

/**
 * The renames a capabilities.json records that hold for `commands` (the candidate's names: the new name is one, the
 * old one is not); none for anything else.
 */
export function renamesOf(capabilities: unknown, candidate: string[]): Rename[] {
  const names = new Set(candidate);
  const commands = isObj(capabilities) && Array.isArray(capabilities.commands) ? capabilities.commands : [];
  const out: Rename[] = [];
  for (const c of commands) {
    const renamed = isObj(c) && isObj(c.nameSource) ? c.nameSource.renamed : undefined;
    if (
      isObj(renamed) &&
      typeof renamed.from === "string" &&
      typeof renamed.entry === "string" &&
      typeof c.name === "string" &&
      names.has(c.name) &&
      !names.has(renamed.from)
    )
      out.push({ from: renamed.from, to: c.name, entry: renamed.entry });
  }
  return out;
}

/** The rename a command line's words (after the binary) begin with, if any. */
export function renameOf(words: string[], renames: Rename[] = []): Rename | undefined {
  return renames.find((r) => {
    const from = r.from.split(" ");
    return from.every((w, i) => words[i] === w);
  });
}

export interface RenameChange {
  file: string;
  pointer: string;
  before: string[];
  after: string[];
  rename: Rename;
}

const rewrite = (
  tokens: string[],
  binary: string,
  renames: Rename[],
): { tokens: string[]; rename: Rename } | undefined => {
  if (tokens[0] !== binary) return undefined;
  const rename = renameOf(tokens.slice(1), renames);
  if (!rename) return undefined;
  return { tokens: [binary, ...rename.to.split(" "), ...tokens.slice(1 + rename.from.split(" ").length)], rename };
};

const isTokens = (value: unknown): value is string[] =>
  Array.isArray(value) && value.length > 0 && value.every((t) => typeof t === "string");

/**
 * The plan (every cli observation's command_prefix) and its reference solutions (every step's argv) with the renamed
 * commands' names replaced, and each change made. Text that does not parse is left alone (validation reports it).
 */
export function applyRenames(
  files: { plan: { file: string; text: string }; reference?: { file: string; text: string } },
  binary: string,
  renames: Rename[],
): { plan?: string; reference?: string; changes: RenameChange[] } {
  const changes: RenameChange[] = [];
  const parse = (text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  };
  const out: { plan?: string; reference?: string; changes: RenameChange[] } = { changes };
  const plan = parse(files.plan.text);
  let planChanged = false;
  if (isObj(plan) && Array.isArray(plan.scenarios)) {
    plan.scenarios.forEach((s: unknown, i: number) => {
      if (!isObj(s) || !Array.isArray(s.observations)) return;
      s.observations.forEach((o: unknown, j: number) => {
        if (!isObj(o) || !isTokens(o.command_prefix)) return;
        const fixed = rewrite(o.command_prefix, binary, renames);
        if (!fixed) return;
        changes.push({
          file: files.plan.file,
          pointer: ptr("scenarios", i, "observations", j, "command_prefix"),
          before: o.command_prefix,
          after: fixed.tokens,
          rename: fixed.rename,
        });
        o.command_prefix = fixed.tokens;
        planChanged = true;
      });
    });
  }
  if (planChanged)
    out.plan =
      inPlace(
        files.plan.text,
        "command_prefix",
        binary,
        changes.filter((c) => c.file === files.plan.file),
      ) ?? `${JSON.stringify(plan, null, 2)}\n`;
  if (files.reference) {
    const reference = parse(files.reference.text);
    let changed = false;
    if (isObj(reference)) {
      for (const [key, steps] of Object.entries(reference)) {
        if (!Array.isArray(steps)) continue;
        steps.forEach((step: unknown, n: number) => {
          if (!isObj(step) || !isTokens(step.argv)) return;
          const fixed = rewrite(step.argv, binary, renames);
          if (!fixed) return;
          changes.push({
            file: files.reference!.file,
            pointer: ptr(key, n, "argv"),
            before: step.argv,
            after: fixed.tokens,
            rename: fixed.rename,
          });
          step.argv = fixed.tokens;
          changed = true;
        });
      }
    }
    if (changed)
      out.reference =
        inPlace(
          files.reference.text,
          "argv",
          binary,
          changes.filter((c) => c.file === files.reference!.file),
        ) ?? `${JSON.stringify(reference, null, 2)}\n`;
  }
  return out;
}

const quote = (text: string) => JSON.stringify(text).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The text with each change made where it stands, so the person's layout survives; undefined when the text does not
 * spell the arrays plainly (escapes), and the caller re-serializes instead.
 */
function inPlace(text: string, field: string, binary: string, changes: RenameChange[]): string | undefined {
  let out = text;
  let made = 0;
  for (const from of [...new Set(changes.map((c) => c.rename.from))]) {
    const rename = changes.find((c) => c.rename.from === from)!.rename;
    const words = [binary, ...from.split(" ")];
    const pattern = new RegExp(
      `("${field}"\\s*:\\s*\\[\\s*)${words.map(quote).join("(\\s*,\\s*)")}(?=\\s*[,\\]])`,
      "g",
    );
    out = out.replace(pattern, (...m: string[]) => {
      made++;
      const separators = m.slice(2, words.length + 1);
      const sep = separators[0] ?? ", ";
      const to = [binary, ...rename.to.split(" ")].map((w) => JSON.stringify(w));
      return `${m[1]}${to.map((w, i) => (i === 0 ? w : `${separators[i - 1] ?? sep}${w}`)).join("")}`;
    });
  }
  return made === changes.length ? out : undefined;
}

/** The changes as a reviewer reads a diff: per file, each place with its line before and after. */
export function renameDiff(changes: RenameChange[]): string {
  const lines: string[] = [];
  for (const file of [...new Set(changes.map((c) => c.file))]) {
    lines.push(`--- ${file}`, `+++ ${file} (the overlay's renames applied)`);
    for (const c of changes.filter((x) => x.file === file))
      lines.push(
        `@@ ${c.pointer} (${c.rename.from} → ${c.rename.to}, ${c.rename.entry})`,
        `-${JSON.stringify(c.before)}`,
        `+${JSON.stringify(c.after)}`,
      );
  }
  return lines.join("\n");
}
