import { existsSync, readFileSync } from "node:fs";
import type { McpConfigPlace } from "../core/agent-homes.js";

/**
 * One MCP server entry in an agent's own configuration file (src/core/agent-homes.ts says which file and key): read
 * what is there, and the file's text with the entry put in or taken out. JSON files are parsed and written back
 * whole, in their own indent; Codex's TOML gets a table of its own appended, and only that exact text is ever replaced
 * or removed, so the rest of the file stays byte for byte.
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
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      kind: "unreadable",
      reason: `it is not JSON (${(error as Error).message}); a file with comments is left to you`,
    };
  }
  if (!isObject(value)) return { kind: "unreadable", reason: "it is not a JSON object" };
  const servers = value[place.key];
  if (servers !== undefined && !isObject(servers))
    return { kind: "unreadable", reason: `its "${place.key}" is not an object` };
  return servers && name in servers ? { kind: "json", entry: servers[name] } : { kind: "none", fileExists: true };
}

/** JSON written back as the file was: its indent (two spaces when new) and whether it ended with a line break. */
function jsonText(value: unknown, previous: string): string {
  const indent = /\n([ \t]+)\S/.exec(previous)?.[1] ?? "  ";
  return `${JSON.stringify(value, null, indent)}${previous && !previous.endsWith("\n") ? "" : "\n"}`;
}

/** The file's new text with the entry put in (replacing `previous`, our own earlier text, for TOML). */
export function withEntry(place: McpConfigPlace, name: string, entry: McpEntry | string, previous?: string): string {
  const text = existsSync(place.file) ? readFileSync(place.file, "utf8") : "";
  if (place.format === "toml") {
    const block = entry as string;
    if (previous && text.includes(previous)) return text.replace(previous, block);
    return `${text}${text && !text.endsWith("\n") ? "\n" : ""}${text ? "\n" : ""}${block}`;
  }
  const value = (text.trim() ? JSON.parse(text) : {}) as Record<string, unknown>;
  const servers = isObject(value[place.key]) ? (value[place.key] as Record<string, unknown>) : {};
  value[place.key] = { ...servers, [name]: entry };
  return jsonText(value, text);
}

/** The file's new text with our entry taken out, or undefined when nothing else is left in a file we created. */
export function withoutEntry(
  place: McpConfigPlace,
  name: string,
  ours: McpEntry | string,
  created: boolean,
): string | undefined {
  const text = readFileSync(place.file, "utf8");
  if (place.format === "toml") {
    const block = ours as string;
    const left = text.replace(`\n${block}`, "").replace(block, "");
    return created && !left.trim() ? undefined : left;
  }
  const value = JSON.parse(text) as Record<string, unknown>;
  const servers = { ...(value[place.key] as Record<string, unknown>) };
  delete servers[name];
  if (Object.keys(servers).length) value[place.key] = servers;
  else delete value[place.key];
  return created && !Object.keys(value).length ? undefined : jsonText(value, text);
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
