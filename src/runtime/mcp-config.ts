import { existsSync, readFileSync } from "node:fs";
import type { ParseError } from "jsonc-parser/lib/esm/main.js";
import type { McpConfigPlace } from "../core/agent-homes.js";

/**
 * One MCP server entry in an agent's own configuration file (src/core/agent-homes.ts says which file and key): read
 * what is there, and the file's text with the entry put in or taken out. Every edit is an insertion whose exact text is
 * recorded (JSON, with comments or not, edited in place in its own indent and line ending; Codex's TOML given a table
 * of its own at the end), and uninstall takes out that text: the file comes back byte for byte, whatever its formatting.
 */

export type McpEntry = Record<string, unknown>;

/** What the file holds under the server's name: nothing, an entry (JSON) or a table's text (TOML), or a file that cannot be read. */
export type Present =
  | { kind: "none"; fileExists: boolean }
  | { kind: "json"; entry: unknown }
  | { kind: "toml"; found: boolean; ours: boolean }
  | { kind: "unreadable"; reason: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const tomlString = (s: string) => JSON.stringify(s);

/** The TOML table for a server: a comment naming who wrote it, then `[mcp_servers.<name>]`. */
export function tomlBlock(
  name: string,
  entry: { command: string; args: string[]; env_vars: string[] },
  by: string,
): string {
  return [
    `# Written by \`${by} agents install\`; \`${by} agents uninstall\` removes it.`,
    `[mcp_servers.${name}]`,
    `command = ${tomlString(entry.command)}`,
    `args = [${entry.args.map(tomlString).join(", ")}]`,
    ...(entry.env_vars.length ? [`env_vars = [${entry.env_vars.map(tomlString).join(", ")}]`] : []),
    "",
  ].join("\n");
}

/** Whether a TOML text defines the server `name` anywhere: its own table, a dotted key, or an inline table under [mcp_servers]. */
function tomlDefines(text: string, name: string): boolean {
  const n = name.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");
  const key = `(?:${n}|"${n}"|'${n}')`;
  if (new RegExp(`^\\s*\\[\\s*mcp_servers\\s*\\.\\s*${key}\\s*[\\].]`, "m").test(text)) return true;
  if (new RegExp(`^\\s*mcp_servers\\s*\\.\\s*${key}\\s*[.=]`, "m").test(text)) return true;
  const table = /^\s*\[\s*mcp_servers\s*\]\s*$([\s\S]*?)(?=^\s*\[|(?![\s\S]))/m.exec(text)?.[1] ?? "";
  return new RegExp(`^\\s*${key}\\s*[.=]`, "m").test(table);
}

/**
 * jsonc-parser, loaded on first use: only `agents install|uninstall` edits an agent's settings file, so no other call
 * of the CLI pays for it at start-up. Its ES module build: the UMD main requires its parts at run time, which a bundle
 * cannot follow.
 */
type Jsonc = typeof import("jsonc-parser/lib/esm/main.js");
let loaded: Jsonc | undefined;
export async function loadJsonc(): Promise<void> {
  loaded ??= await import("jsonc-parser/lib/esm/main.js");
}
const jsonc = (): Jsonc => {
  if (!loaded) throw new Error("mcp-config: loadJsonc() was not awaited");
  return loaded;
};

/** The file's line ending: CRLF when it has one, else LF. */
const eolOf = (text: string) => (text.includes("\r\n") ? "\r\n" : "\n");

/** JSON with comments and trailing commas, as agents' settings files are: undefined when it does not parse. */
function parseLoose(text: string): { value: unknown } | undefined {
  const errors: ParseError[] = [];
  const value: unknown = jsonc().parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  return errors.length ? undefined : { value };
}

export function readPresent(place: McpConfigPlace, name: string, ourBlock: string | undefined): Present {
  if (!existsSync(place.file)) return { kind: "none", fileExists: false };
  const text = readFileSync(place.file, "utf8");
  if (place.format === "toml") {
    const ours = ourBlock !== undefined && text.includes(ourBlock);
    const rest = ours ? text.replace(ourBlock!, "") : text;
    if (tomlDefines(rest, name)) return { kind: "toml", found: true, ours: false };
    return ours ? { kind: "toml", found: true, ours: true } : { kind: "none", fileExists: true };
  }
  if (!text.trim()) return { kind: "none", fileExists: true };
  const parsed = parseLoose(text);
  if (!parsed) return { kind: "unreadable", reason: "it is not JSON (nor JSON with comments)" };
  const { value } = parsed;
  if (!isObject(value)) return { kind: "unreadable", reason: "it is not a JSON object" };
  const servers = value[place.key];
  if (servers !== undefined && !isObject(servers))
    return { kind: "unreadable", reason: `its "${place.key}" is not an object` };
  return servers && name in servers ? { kind: "json", entry: servers[name] } : { kind: "none", fileExists: true };
}

/** The indent a JSON text uses (its first indented line's), two spaces when it shows none. */
function formattingOf(text: string) {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? "  ";
  return indent.startsWith("\t")
    ? { insertSpaces: false, tabSize: 1, eol: eolOf(text) }
    : { insertSpaces: true, tabSize: indent.length, eol: eolOf(text) };
}

/**
 * The file's text with an entry put in, and the exact text inserted: uninstall takes out that text and nothing else,
 * so the file comes back byte for byte whatever its formatting (one line, tabs, CRLF, comments, no final newline).
 * `inserted` is undefined when the edit was not a pure insertion (an entry replaced in place).
 */
export interface Edited {
  text: string;
  inserted?: string;
  /** For TOML: the table's text as written (in the file's line ending). */
  entry: McpEntry | string;
}

/** The file's text without what an earlier install inserted (`inserted`), when that text is there exactly once. */
function withoutInserted(text: string, inserted: string | undefined): string | undefined {
  if (!inserted) return undefined;
  const at = text.indexOf(inserted);
  return at >= 0 && text.indexOf(inserted, at + 1) < 0
    ? text.slice(0, at) + text.slice(at + inserted.length)
    : undefined;
}

/** The file's new text with the entry put in; an earlier install's insertion (`previous`) is taken out first. */
export function withEntry(
  place: McpConfigPlace,
  name: string,
  entry: McpEntry | string,
  previous?: { entry: McpEntry | string; inserted?: string },
): Edited {
  const current = existsSync(place.file) ? readFileSync(place.file, "utf8") : "";
  const text = withoutInserted(current, previous?.inserted) ?? current;
  if (place.format === "toml") {
    const block = (entry as string).replace(/\r?\n/g, eolOf(text));
    const old = typeof previous?.entry === "string" ? previous.entry : undefined;
    if (old && text.includes(old)) return { text: text.replace(old, block), entry: block };
    const eol = eolOf(text);
    const inserted = `${text && !text.endsWith("\n") ? eol : ""}${text ? eol : ""}${block}`;
    return { text: `${text}${inserted}`, inserted, entry: block };
  }
  if (!text.trim()) {
    const created = `${JSON.stringify({ [place.key]: { [name]: entry } }, null, 2)}\n`;
    return { text: text + created, inserted: created, entry };
  }
  // Without formatting options the edit is a pure insertion (formatting would rewrite the object around it); the
  // inserted text is then laid out as the file is, unless the file is on one line.
  const edits = jsonc().modify(text, [place.key, name], entry, {});
  const edit = edits.length === 1 && edits[0]!.length === 0 ? edits[0]! : undefined;
  if (!edit) return { text: jsonc().applyEdits(text, edits), entry };
  const inserted = text.includes("\n") ? laidOut(text, place.key, name, entry as McpEntry, edit.content) : edit.content;
  return { text: text.slice(0, edit.offset) + inserted + text.slice(edit.offset), inserted, entry };
}

/**
 * The member an insertion adds, in the file's indent and line ending: after a member (`,` first) or into an empty
 * object; into the servers object when the file has one, else as the servers object itself at the top.
 */
function laidOut(text: string, key: string, name: string, entry: McpEntry, compact: string): string {
  const { insertSpaces, tabSize, eol } = formattingOf(text);
  const unit = insertSpaces ? " ".repeat(tabSize) : "\t";
  const servers = (parseLoose(text)?.value as Record<string, unknown> | undefined)?.[key];
  const depth = isObject(servers) ? 2 : 1;
  const pretty = (value: unknown) =>
    JSON.stringify(value, null, unit)
      .split("\n")
      .join(eol + unit.repeat(depth));
  const member = isObject(servers)
    ? `${JSON.stringify(name)}: ${pretty(entry)}`
    : `${JSON.stringify(key)}: ${pretty({ [name]: entry })}`;
  return compact.startsWith(",")
    ? `,${eol}${unit.repeat(depth)}${member}`
    : `${eol}${unit.repeat(depth)}${member}${eol}${unit.repeat(depth - 1)}`;
}

/**
 * The file's new text with our entry taken out, or undefined when nothing else is left in a file we created. What the
 * install inserted is taken out exactly when it is still there; else (the file changed around it) the entry alone.
 */
export function withoutEntry(
  place: McpConfigPlace,
  name: string,
  ours: { entry: McpEntry | string; inserted?: string },
  created: boolean,
): string | undefined {
  const text = readFileSync(place.file, "utf8");
  const exact = withoutInserted(text, ours.inserted);
  if (exact !== undefined) return created && !exact.trim() ? undefined : exact;
  if (place.format === "toml") {
    const block = ours.entry as string;
    const left = text.replace(`\n${block}`, "").replace(block, "");
    return created && !left.trim() ? undefined : left;
  }
  const formattingOptions = formattingOf(text);
  let left = jsonc().applyEdits(text, jsonc().modify(text, [place.key, name], undefined, { formattingOptions }));
  const value = parseLoose(left)?.value as Record<string, unknown> | undefined;
  const servers = value?.[place.key];
  if (isObject(servers) && !Object.keys(servers).length)
    left = jsonc().applyEdits(left, jsonc().modify(left, [place.key], undefined, { formattingOptions }));
  const rest = parseLoose(left)?.value;
  return created && isObject(rest) && !Object.keys(rest).length ? undefined : left;
}

/** Equal JSON values, whatever their key order. */
export function sameJson(a: unknown, b: unknown): boolean {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : isObject(v)
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sort(v[k])]),
          )
        : v;
  return JSON.stringify(sort(a)) === JSON.stringify(sort(b));
}
