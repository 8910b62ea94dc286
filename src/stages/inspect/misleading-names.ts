import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { HelpCommand } from "./subjects.js";

/**
 * Names that mislead an agent (docs/naming.md), judged from what the CLI's help shows of each command: an action that
 * contradicts the HTTP method (a DELETE named as a read, a GET as a write), a number told commands apart
 * (`delete-2`), an action word found in none of the command's own texts. Word lists of this file only, so the
 * inspection judges any CLI, inter's own included, without repeating its designer.
 */

const READS = new Set([
  "get",
  "list",
  "show",
  "read",
  "view",
  "fetch",
  "retrieve",
  "find",
  "search",
  "describe",
  "query",
  "lookup",
]);
const WRITES = new Set([
  "create",
  "add",
  "update",
  "set",
  "replace",
  "modify",
  "edit",
  "patch",
  "delete",
  "remove",
  "insert",
  "erase",
  "destroy",
]);
/** Words an action may carry without any text saying them: the CRUD words of methods and path shapes. */
const STANDARD = new Set([...READS, ...WRITES, "check", "call", "send", "all", "bulk", "batch"]);

export interface NameFinding {
  command: string;
  problem: "contradicts its method" | "numeric suffix" | "word from no operation text";
  detail: string;
}

/**
 * Lowercase words of a text, camelCase split, each with a plain form so "schedulers" meets "scheduler", and each pair
 * of neighbours joined ("logs out" → logout).
 */
function words(text: string): Set<string> {
  const out = new Set<string>();
  const all = text
    .normalize("NFKD")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .flatMap((whole) => [whole, ...whole.replace(/([a-z0-9])([A-Z])/g, "$1 $2").split(" ")])
    .map((w) => plain(w.toLowerCase()));
  all.forEach((w, i) => {
    out.add(w);
    if (i > 0) out.add(plain(`${all[i - 1]}${w}`));
  });
  return out;
}

/** The six-letter beginnings of a text's longer words, made once per text (a large CLI's texts run to megabytes). */
const stems = new WeakMap<Set<string>, Set<string>>();
const stemsOf = (said: Set<string>) => {
  let out = stems.get(said);
  if (!out) stems.set(said, (out = new Set([...said].filter((s) => s.length >= 6).map((s) => s.slice(0, 6)))));
  return out;
};

/** Whether a text says a word: whole, or a word of the same stem ("availability" ~ "available", "followers" ~ "follows"). */
const says = (said: Set<string>, word: string) =>
  said.has(word) || said.has(plain(word)) || (word.length >= 6 && stemsOf(said).has(word.slice(0, 6)));

function plain(word: string): string {
  let w = word;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(ss|x|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !w.endsWith("ss") && w.length > 3) w = w.slice(0, -1);
  if (w.endsWith("ing") && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith("ed") && w.length > 4) w = w.slice(0, -2);
  return w.replace(/e$/, "");
}

/**
 * The operation each command calls, where the package says (inter's `commands/<group>.json`: method, path,
 * operationId): the words a name may take from its path and id, which help does not show.
 */
export function operationTexts(packageRoot: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  const folder = packageRoot ? join(packageRoot, "commands") : "";
  if (!folder || !existsSync(folder)) return out;
  for (const file of readdirSync(folder).filter((f) => f.endsWith(".json"))) {
    try {
      const { commands } = JSON.parse(readFileSync(join(folder, file), "utf8")) as {
        commands?: Array<{ name?: string; operation?: { path?: string; operationId?: string } }>;
      };
      for (const c of commands ?? [])
        if (typeof c.name === "string") out.set(c.name, `${c.operation?.path ?? ""} ${c.operation?.operationId ?? ""}`);
    } catch {
      // A file that is not inter's command file says nothing about names.
    }
  }
  return out;
}

export function misleadingNames(commands: HelpCommand[], operations: Map<string, string> = new Map()): NameFinding[] {
  const findings: NameFinding[] = [];
  for (const c of commands) {
    const method = String(c.method ?? "").toUpperCase();
    if (!method) continue;
    const action = c.name.split(" ").pop()!.split("-");
    const verb = action[0] === "bulk" || action[0] === "batch" ? (action[1] ?? "") : action[0]!;
    if ((method === "DELETE" && READS.has(verb)) || (method === "GET" && WRITES.has(verb)))
      findings.push({ command: c.name, problem: "contradicts its method", detail: `${method} named "${verb}"` });
    // The command's words are gathered only when a word of its action needs them (most actions are standard words).
    let said: Set<string> | undefined;
    const saidOf = () =>
      (said ??= words(
        [
          c.description ?? "",
          operations.get(c.name) ?? "",
          c.name.split(" ").slice(0, -1).join(" "),
          ...(c.parameters ?? []).flatMap((p) => [
            String(p.name ?? ""),
            String((p as { description?: unknown }).description ?? ""),
          ]),
        ].join(" "),
      ));
    const last = action[action.length - 1]!;
    if (/^\d+$/.test(last) && action.length > 1 && !saidOf().has(last))
      findings.push({
        command: c.name,
        problem: "numeric suffix",
        detail: `"-${last}" tells it apart from ${action.slice(0, -1).join("-")}`,
      });
    // Only the action's words: resource words come from tags and paths help does not show.
    const unsaid = c.description
      ? action.filter((w) => !/^\d+$/.test(w) && !STANDARD.has(w) && !says(saidOf(), w))
      : [];
    if (c.description && unsaid.length)
      findings.push({
        command: c.name,
        problem: "word from no operation text",
        detail: `${unsaid.map((w) => `"${w}"`).join(", ")} in no text of the command`,
      });
  }
  return findings;
}
