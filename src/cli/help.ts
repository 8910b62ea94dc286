import type { Cli } from "clipanion";

/** Flags every command takes (BaseCommand): listed once, not on every command. */
export const GLOBAL_FLAGS = new Set(["--json", "--config", "--cwd", "--concurrency", "--force"]);

/** Names for the values flags take, where clipanion would print `#0`. */
const PLACEHOLDERS: Record<string, string> = {
  "--config": "file", "--cwd": "dir", "--concurrency": "n", "--dir": "dir", "--name": "name", "--display-name": "name", "--openapi": "file",
  "--min-pass-rate": "0..1", "--bin": "command", "--base-url": "url", "--min-level": "level", "--candidate": "cli.tgz", "--agent": "agent",
  "--agent-command": "json-argv", "--judge-command": "json-argv", "--repetitions": "n", "--attempts-concurrency": "n", "--timeout": "seconds",
  "--shard": "i/n", "--format": "format", "--out": "dir", "--a": "cli.tgz", "--b": "cli.tgz", "--seed": "n", "--max-size": "size", "--project-dir": "dir",
};

/** `--config #0` → `--config <file>`. */
export function namedFlag(definition: string): string {
  return definition.replace(/^(\S+) #0$/, (_, flag: string) => `${flag} <${PLACEHOLDERS[flag] ?? "value"}>`);
}

const flagName = (definition: string) => definition.split(/[ ,]/)[0]!;
type Definition = ReturnType<Cli["definitions"]>[number];

function wrap(text: string, indent: string, width = 100): string {
  const words = text.replace(/\s+/g, " ").trim().split(" ");
  const lines: string[] = [];
  let line = "";
  for (const w of words) {
    if (line && line.length + w.length + 1 > width - indent.length) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return lines.map((l) => `${indent}${l}`).join("\n");
}

function globalLines(definitions: Definition[]): string[] {
  const options = definitions[0]?.options.filter((o) => GLOBAL_FLAGS.has(flagName(o.definition))) ?? [];
  const width = Math.max(...options.map((o) => namedFlag(o.definition).length), 20);
  return options.map((o) => `  ${namedFlag(o.definition).padEnd(width)}  ${o.description ?? ""}${flagName(o.definition) === "--cwd" ? " (alias: --project-dir)" : ""}`);
}

/** Root help for people: the commands with what each does, the global flags once, and where to go next. */
export function rootHelpText(cli: Cli, header: string): string {
  const definitions = cli.definitions();
  const width = Math.max(...definitions.map((d) => d.path.length));
  return [
    header,
    "",
    "Usage: inter <command> [flags]",
    "",
    "Commands:",
    ...definitions.map((d) => `  ${d.path.padEnd(width)}  ${(d.description ?? "").trim()}`),
    "",
    "Global flags (every command takes them):",
    ...globalLines(definitions),
    "",
    "Run `inter <command> --help` for a command's flags and examples; add --json for help as data.",
    "",
  ].join("\n");
}

/** One command's help: usage with named values, what it does, its own flags, the global flags in one line, examples. */
export function commandHelpText(cli: Cli, path: string): string {
  const d = cli.definitions().find((x) => x.path === path);
  if (!d) return "";
  const own = d.options.filter((o) => !GLOBAL_FLAGS.has(flagName(o.definition)));
  const usageFlags = own.map((o) => (o.required ? namedFlag(o.definition) : `[${namedFlag(o.definition)}]`));
  const positionals = d.usage.slice(d.path.length).trim();
  const width = Math.max(...own.map((o) => namedFlag(o.definition).length), 10);
  return [
    `${d.path} — ${(d.description ?? "").trim()}`,
    "",
    `Usage: ${[d.path, ...usageFlags, positionals].filter(Boolean).join(" ")}`,
    ...(d.details ? ["", wrap(d.details, "")] : []),
    ...(own.length ? ["", "Flags:", ...own.map((o) => `  ${namedFlag(o.definition).padEnd(width)}  ${o.description ?? ""}`)] : []),
    "",
    `Global flags: ${[...GLOBAL_FLAGS].map((f) => (PLACEHOLDERS[f] ? `${f} <${PLACEHOLDERS[f]}>` : f)).join(", ")} (inter --help says what each does).`,
    ...(d.examples?.length ? ["", "Examples:", ...d.examples.flatMap(([description, command]) => [`  ${description.trim().replace(/:$/, "")}:`, `    $ ${command.trim()}`])] : []),
    "",
  ].join("\n");
}
