import type { Cli } from "clipanion";

/** Flags every command takes (BaseCommand): listed once, not on every command. */
const GLOBAL_FLAGS = new Set(["--json", "--config", "--cwd", "--concurrency", "--force"]);

/** Names for the values flags take, where clipanion would print `#0`. */
const PLACEHOLDERS: Record<string, string> = {
  "--config": "file",
  "--cwd": "dir",
  "--concurrency": "n",
  "--dir": "dir",
  "--name": "name",
  "--display-name": "name",
  "--openapi": "file",
  "--min-pass-rate": "0..1",
  "--bin": "command",
  "--base-url": "url",
  "--min-level": "level",
  "--candidate": "cli.tgz",
  "--agent": "agent",
  "--agent-command": "json-argv",
  "--judge-command": "json-argv",
  "--repetitions": "n",
  "--attempts-concurrency": "n",
  "--timeout": "seconds",
  "--shard": "i/n",
  "--format": "format",
  "--out": "dir",
  "--a": "cli.tgz",
  "--b": "cli.tgz",
  "--seed": "n",
  "--max-size": "size",
  "--project-dir": "dir",
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
  return options.map(
    (o) =>
      `  ${namedFlag(o.definition).padEnd(width)}  ${o.description ?? ""}${flagName(o.definition) === "--cwd" ? " (alias: --project-dir)" : ""}`,
  );
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

/**
 * The boolean flags a command turns on by default (`Option.Boolean("--remote", true)`): giving them changes nothing,
 * their `--no-` form does. Read from the command's own option declarations (clipanion keeps the default in the
 * option's transformer), so a new default-on flag needs no list here; anything unexpected yields none.
 */
function defaultOnFlags(command: (new () => object) | undefined): Set<string> {
  const on = new Set<string>();
  if (!command) return on;
  try {
    for (const [key, option] of Object.entries(new command() as Record<string, any>)) {
      if (typeof option?.definition !== "function" || typeof option?.transformer !== "function") continue;
      let spec: { names?: string[]; arity?: number } = {};
      option.definition(
        { addOption: (o: typeof spec) => (spec = o), addPositional() {}, addRest() {}, addProxy() {} },
        key,
      );
      if (spec.arity === 0 && spec.names && option.transformer({}, key, { options: [], positionals: [] }) === true)
        for (const n of spec.names) on.add(n);
    }
  } catch {
    // an option shape this does not know: show the flags as declared
  }
  return on;
}

const GLOBAL_LINE = `Global flags: ${[...GLOBAL_FLAGS].map((f) => (PLACEHOLDERS[f] ? `${f} <${PLACEHOLDERS[f]}>` : f)).join(", ")} (inter --help says what each does).`;

/**
 * One command's help: usage with named values, what it does, its own flags, the global flags in one line, examples.
 * A flag on by default is shown as what one would type, `[--no-remote]`, and listed as `--[no-]remote`. `globals:
 * false` leaves the global-flags line out (a group's help says it once, after every command).
 */
export function commandHelpText(
  cli: Cli,
  path: string,
  command?: new () => object,
  options: { globals?: boolean } = {},
): string {
  const d = cli.definitions().find((x) => x.path === path);
  if (!d) return "";
  const on = defaultOnFlags(command);
  const own = d.options.filter((o) => !GLOBAL_FLAGS.has(flagName(o.definition)));
  const usageFlags = own.map((o) =>
    o.required
      ? namedFlag(o.definition)
      : on.has(o.definition)
        ? `[${o.definition.replace(/^--/, "--no-")}]`
        : `[${namedFlag(o.definition)}]`,
  );
  const listed = (o: (typeof own)[number]) =>
    on.has(o.definition) ? o.definition.replace(/^--/, "--[no-]") : namedFlag(o.definition);
  const positionals = d.usage.slice(d.path.length).trim();
  const width = Math.max(...own.map((o) => listed(o).length), 10);
  return [
    `${d.path} — ${(d.description ?? "").trim()}`,
    "",
    `Usage: ${[d.path, ...usageFlags, positionals].filter(Boolean).join(" ")}`,
    ...(d.details ? ["", wrap(d.details, "")] : []),
    ...(own.length ? ["", "Flags:", ...own.map((o) => `  ${listed(o).padEnd(width)}  ${o.description ?? ""}`)] : []),
    ...(options.globals === false ? [] : ["", GLOBAL_LINE]),
    ...(d.examples?.length
      ? [
          "",
          "Examples:",
          ...d.examples.flatMap(([description, command]) => [
            `  ${description.trim().replace(/:$/, "")}:`,
            `    $ ${command.trim()}`,
          ]),
        ]
      : []),
    "",
  ].join("\n");
}

/** A group's help (`inter cache --help`): each command of the group, then the global flags once. */
export function groupHelpText(cli: Cli, commands: Array<{ path: string; command?: new () => object }>): string {
  return `${commands.map((c) => commandHelpText(cli, c.path, c.command, { globals: false })).join("\n")}\n${GLOBAL_LINE}\nRun \`inter <command> --help\` for one command's help; \`inter --help\` says what each global flag does.\n`;
}
