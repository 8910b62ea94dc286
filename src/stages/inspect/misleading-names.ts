import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Cli } from "../../runtime/load.js";
import type { HelpCommand } from "./subjects.js";
import { camelParts } from "../../core/camel-words.js";
import { POSTED_READ, READ_VERBS, WRITE_VERBS } from "../../core/verbs.js";

/**
 * Names that mislead an agent (docs/naming.md), judged from what the CLI's help shows of each command: an action that
 * contradicts the HTTP method (a DELETE named as a read, a GET as a write), a number told commands apart
 * (`delete-2`), an action word found in none of the command's own texts. It reads the verb table the designer
 * names by (core/verbs.ts), so what makes a name and what judges it agree; everything else it reads from the CLI.
 */

/** Words an action may carry without any text saying them: the CRUD words of methods and path shapes. */
const STANDARD = new Set([...READ_VERBS, ...WRITE_VERBS, POSTED_READ, "check", "call", "send", "all", "bulk", "batch"]);

export interface NameFinding {
  command: string;
  problem: "contradicts its method" | "numeric suffix" | "word from no operation text";
  detail: string;
}

/**
 * What a command's texts say: lowercase words, camelCase split, each with a plain form so "schedulers" meets
 * "scheduler", and each pair of neighbours joined ("logs out" → logout). A command's text is its pieces joined by
 * spaces (description, operation, group words, each flag's name and description); a space splits no word and joins
 * none, so the words of the whole are each piece's words and the joins across each gap between pieces. A large CLI
 * repeats its pieces (the same flag on thousands of commands): each distinct piece is read once per inspection.
 */
interface PieceWords {
  said: Set<string>;
  /** The six-letter beginnings of its longer words, made on first use. */
  stems?: Set<string>;
  first?: string;
  last?: string;
}

const CAMEL = /([a-z0-9])([A-Z])/g;
const NON_ASCII = /[^\x00-\x7f]/;
const SEPARATORS = /[^A-Za-z0-9]+/;

function pieceWords(text: string): PieceWords {
  const said = new Set<string>();
  let last: string | undefined;
  let first: string | undefined;
  const add = (w: string) => {
    said.add(w);
    if (last !== undefined) said.add(plain(`${last}${w}`));
    else first = w;
    last = w;
  };
  for (const whole of (NON_ASCII.test(text) ? text.normalize("NFKD") : text).split(SEPARATORS)) {
    if (!whole) continue;
    const w = plain(whole.toLowerCase());
    add(w);
    // A word with no camelCase boundary is its own only part; else its parts as the designer reads them
    // (core/camel-words.ts: `IoTSpaces` → iot, spaces; `TSSites` → ts, sites), and at each boundary alone.
    if (whole.search(CAMEL) < 0 && !/[A-Z]{2}[a-z]/.test(whole)) add(w);
    else {
      for (const part of camelParts(whole).split("-")) if (part) add(plain(part.toLowerCase()));
      for (const part of whole.replace(CAMEL, "$1 $2").split(" ")) said.add(plain(part.toLowerCase()));
    }
  }
  return { said, first, last };
}

/** The six-letter beginnings of a piece's longer words. */
const stemsOf = (piece: PieceWords) =>
  (piece.stems ??= new Set([...piece.said].filter((s) => s.length >= 6).map((s) => s.slice(0, 6))));

/** One command's texts: its pieces' words and the words joined across the gaps between them. */
class Said {
  private readonly joins: string[] = [];
  constructor(private readonly pieces: PieceWords[]) {
    let last: string | undefined;
    for (const piece of pieces) {
      if (piece.first === undefined) continue;
      if (last !== undefined) this.joins.push(plain(`${last}${piece.first}`));
      last = piece.last;
    }
  }
  has(word: string): boolean {
    return this.joins.includes(word) || this.pieces.some((p) => p.said.has(word));
  }
  hasStem(stem: string): boolean {
    return this.joins.some((j) => j.length >= 6 && j.startsWith(stem)) || this.pieces.some((p) => stemsOf(p).has(stem));
  }
}

/** Whether a text says a word: whole, or a word of the same stem ("availability" ~ "available", "followers" ~ "follows"). */
const says = (said: Said, word: string) =>
  said.has(word) || said.has(plain(word)) || (word.length >= 6 && said.hasStem(word.slice(0, 6)));

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
 * operationId): the words a name may take from its path and id, which help does not show. A group's file the
 * inspection already read (`cli`) is not read again.
 */
export function operationTexts(packageRoot: string | undefined, cli?: Cli): Map<string, string> {
  const out = new Map<string, string>();
  const folder = packageRoot ? join(packageRoot, "commands") : "";
  if (!folder || !existsSync(folder)) return out;
  const groups = new Set(cli?.manifest.groups.map((g) => g.name));
  for (const file of readdirSync(folder).filter((f) => f.endsWith(".json"))) {
    const group = file.slice(0, -".json".length);
    let commands: Array<{ name?: string; operation?: { path?: string; operationId?: string } }> | undefined;
    try {
      commands =
        cli && groups.has(group)
          ? (cli.group(group) as typeof commands)
          : (JSON.parse(readFileSync(join(folder, file), "utf8")) as { commands?: typeof commands }).commands;
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
  const pieces = new Map<string, PieceWords>();
  const piece = (text: string) => {
    let words = pieces.get(text);
    if (!words) pieces.set(text, (words = pieceWords(text)));
    return words;
  };
  for (const c of commands) {
    const method = String(c.method ?? "").toUpperCase();
    if (!method) continue;
    const action = c.name.split(" ").pop()!.split("-");
    const verb = action[0] === "bulk" || action[0] === "batch" ? (action[1] ?? "") : action[0]!;
    if ((method === "DELETE" && READ_VERBS.has(verb)) || (method === "GET" && WRITE_VERBS.has(verb)))
      findings.push({ command: c.name, problem: "contradicts its method", detail: `${method} named "${verb}"` });
    // The command's words are gathered only when a word of its action needs them (most actions are standard words).
    let said: Said | undefined;
    const saidOf = () =>
      (said ??= new Said(
        [
          c.description ?? "",
          // The whole description, as the designer read it: a name word from its second sentence is the command's own.
          c.details ?? "",
          operations.get(c.name) ?? "",
          c.name.split(" ").slice(0, -1).join(" "),
          ...(c.parameters ?? []).flatMap((p) => [
            String(p.name ?? ""),
            String((p as { description?: unknown }).description ?? ""),
          ]),
        ].map(piece),
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
