import { Command, Option } from "clipanion";
import { existsSync, mkdirSync, statSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { InterError } from "../../core/errors.js";
import { BaseCommand, type CommandResult } from "../base.js";

const quote = (s: string) => (/^[\w./:@=-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);

interface ScaffoldOptions {
  cwd: string;
  dir: string;
  dirGiven?: string;
  name?: string;
  openapi?: string;
  example: boolean;
  dryRun: boolean;
  /** The command that resumes a partial run, as text and as a next action. */
  resume: string;
  resumeArgs: { command: string; args: string[]; cwd: string };
}

/** What `inter init` and `inter setup` both do: plan every step, and carry them out unless it is a dry run. */
async function scaffold(o: ScaffoldOptions) {
  const { dir } = o;
  if (existsSync(dir) && !statSync(dir).isDirectory())
    throw new InterError(
      "USAGE_ERROR",
      `${dir} is a file, not a folder.`,
      "Give a folder (it is created if missing).",
      { dir },
    );
  if (o.example && o.openapi)
    throw new InterError(
      "USAGE_ERROR",
      "--example brings its own OpenAPI document; --openapi does not go with it.",
      "Drop one of the two flags.",
    );
  const { binaryFor } = await import("../init/templates.js");
  const { planInit, applyInit } = await import("../init/init.js");
  const named = (title: string | undefined) => {
    const name = o.example ? "Rooms" : (o.name ?? title ?? basename(dir));
    return { name, binary: o.example ? "rooms" : binaryFor(name) };
  };
  const openapi = o.example
    ? "inputs/openapi.yaml"
    : o.openapi
      ? relative(dir, resolve(o.cwd, o.openapi)).split("\\").join("/")
      : "inputs/openapi.yaml";
  if (o.openapi && !existsSync(resolve(o.cwd, o.openapi)))
    throw new InterError(
      "INPUT_NOT_FOUND",
      `--openapi ${o.openapi} does not exist.`,
      "Give the path of your OpenAPI document (YAML or JSON), relative to where you run inter.",
      { path: resolve(o.cwd, o.openapi) },
    );
  // The product is named by the document's title, and the config names the variables its security schemes read, as
  // the build will (init/credentials.ts).
  const facts = o.openapi
    ? await (await import("../init/credentials.js")).documentFacts(resolve(o.cwd, o.openapi), o.cwd, named)
    : {};
  const { name, binary } = named(facts.title);
  const credentials = facts.credentials;
  const choices = {
    name,
    binary,
    openapi,
    openapiGiven: Boolean(o.openapi) || o.example,
    example: o.example,
    ...(credentials ? { credentials } : {}),
  };
  const steps = planInit(dir, choices);
  if (!o.dryRun) {
    mkdirSync(dir, { recursive: true });
    applyInit(dir, steps, o.resume, o.resumeArgs);
  }
  const next = [
    ...(!choices.openapiGiven
      ? [
          `Put your OpenAPI document at ${relative(o.cwd, resolve(dir, openapi)) || openapi} (or run \`${o.resume} --openapi <file>\`).`,
        ]
      : []),
    ...(!o.example
      ? ["Replace the TODOs in inputs/context.md with your product's brief (docs/context.md explains it)."]
      : []),
    `Run \`inter status${o.dirGiven ? ` --cwd ${quote(o.dirGiven)}` : ""}\` to see what is still missing, then \`inter build\`${o.example ? " and `ROOMS_API_KEY=rooms-demo-key inter run eval`" : ""}.`,
  ];
  const conflicts = steps.filter((s) => s.action === "conflict");
  const data = {
    dir,
    dryRun: o.dryRun,
    steps: steps.map(({ write: _write, ...s }) => s),
    conflicts: conflicts.length,
    next,
  };
  const width = Math.max(...steps.map((s) => s.action.length));
  const human = [
    `${o.dryRun ? "would write" : "wrote"} in ${dir}:`,
    ...steps.map(
      (s) =>
        `  ${s.action.padEnd(width)}  ${s.path}${s.reason ? ` — ${s.reason}` : ""}${s.decision ? `\n  ${" ".repeat(width)}  → decide: ${s.decision}` : ""}`,
    ),
    ...(conflicts.length
      ? [`${conflicts.length} conflict${conflicts.length > 1 ? "s" : ""} left untouched; everything else is in place.`]
      : []),
    "Next:",
    ...next.map((n) => `  - ${n}`),
  ].join("\n");
  return { data, human, choices, steps };
}

export class InitCommand extends BaseCommand {
  static paths = [["init"]];
  static usage = Command.Usage({
    description:
      "Scaffold a project: config, brief skeleton, evals/, .gitignore lines, and inter's own Skills for agents",
    details:
      "Writes intermesh.config.ts, inputs/context.md (a commented skeleton), evals/README.md and the .gitignore lines, and installs inter's Skills into .agents/skills/ (linked from .claude/skills/ when .claude/ exists). --openapi names your OpenAPI document; without it the config expects inputs/openapi.yaml and `inter status` reports it missing. --example scaffolds the complete Rooms example instead (API server, brief, plan), ready for `inter run eval`. A file inter init did not write is never overwritten: it is kept, or reported as a conflict with the decision it needs. Running it again changes nothing; --dry-run prints every step without writing.",
    examples: [
      ["Start a project for your API", "inter init --name Acme --openapi openapi.yaml"],
      ["See what it would write", "inter init --dir acme --name Acme --dry-run"],
      ["The complete example, ready to evaluate", "inter init --dir rooms-demo --example"],
    ],
  });
  dir = Option.String("--dir", {
    description: "Folder to scaffold (default: the working directory); created if missing",
  });
  name = Option.String("--name", {
    description:
      "Product name (default: the OpenAPI document's title, without a trailing \"API\" or version, else the folder's name); the binary name is derived from it",
  });
  openapi = Option.String("--openapi", { description: "Path of your OpenAPI document, relative to the folder" });
  example = Option.Boolean("--example", false, {
    description: "Scaffold the Rooms example: its API server, OpenAPI, brief and evaluation plan",
  });
  dryRun = Option.Boolean("--dry-run", false, {
    description: "Print every step and whether its file exists; write nothing",
  });

  async run(): Promise<CommandResult> {
    const cwd = this.cwd ?? process.cwd();
    const resume = [
      "inter",
      "init",
      ...(this.dir ? ["--dir", this.dir] : []),
      ...(this.name ? ["--name", this.name] : []),
      ...(this.openapi ? ["--openapi", this.openapi] : []),
      ...(this.example ? ["--example"] : []),
    ]
      .map(quote)
      .join(" ");
    const done = await scaffold({
      cwd,
      dir: resolve(cwd, this.dir ?? "."),
      dirGiven: this.dir,
      name: this.name,
      openapi: this.openapi,
      example: this.example,
      dryRun: this.dryRun,
      resume,
      resumeArgs: { command: "inter", args: resume.split(" ").slice(1), cwd },
    });
    return { data: done.data, human: done.human };
  }
}

/**
 * Intermesh 0.1's agent-facing form of `inter init`, in that version's words: `--project-dir` (the workspace),
 * `--display-name`, `--dry-run` returning `data.plan`; SETUP_INPUT_REQUIRED with `missing_fields` when the name is not
 * given; a partial failure names completed, failed and pending steps and the next actions.
 */
export class SetupCommand extends BaseCommand {
  static paths = [["setup"]];
  static usage = Command.Usage({
    description:
      "Prepare a workspace for an agent (Intermesh 0.1's words for inter init): plan with --dry-run, then apply",
    details:
      "The workspace is --project-dir (an alias of --cwd; default: the working directory). --display-name is the product's name (required unless the workspace has a config already). With --dry-run, data.plan lists the workspace, the identity (display name, binary, package), the targets, every file action and where inter's Skills go; nothing is written. Without it the same steps are carried out. Missing inputs are SETUP_INPUT_REQUIRED (exit 2) with details.missing_fields; a partial failure is INIT_FAILED with completed_steps, failed_step, pending_steps and next_actions.",
    examples: [
      ["Plan the setup of a workspace", "inter --json setup --project-dir /abs/acme --display-name Acme --dry-run"],
      ["Carry it out", "inter --json setup --project-dir /abs/acme --display-name Acme --openapi openapi.yaml"],
    ],
  });
  displayName = Option.String("--display-name", {
    description: "The product's name, as people say it (the binary's name is derived from it)",
  });
  openapi = Option.String("--openapi", { description: "Path of your OpenAPI document, relative to the workspace" });
  example = Option.Boolean("--example", false, { description: "Set up the Rooms example instead" });
  dryRun = Option.Boolean("--dry-run", false, { description: "Return the plan (data.plan); write nothing" });

  async run(): Promise<CommandResult> {
    const dir = resolve(this.cwd ?? process.cwd());
    const { findConfig } = await import("../../config/load.js");
    const configured = findConfig(dir) !== undefined && existsSync(join(dir, "intermesh.config.ts"));
    const again = (extra: string[]) => ({
      command: "inter",
      args: ["--json", "setup", "--project-dir", dir, ...extra],
      cwd: dir,
    });
    if (!this.displayName && !this.example && !configured) {
      throw new InterError(
        "SETUP_INPUT_REQUIRED",
        "inter setup needs the product's display name.",
        "Ask the user what the product is called, then pass --display-name <name>.",
        {
          missing_fields: ["display_name"],
          next_actions: [
            { ...again(["--display-name", "<name>", "--dry-run"]), after: "the user gave the product's name" },
          ],
        },
      );
    }
    const resumeArgs = again([
      ...(this.displayName ? ["--display-name", this.displayName] : []),
      ...(this.openapi ? ["--openapi", this.openapi] : []),
      ...(this.example ? ["--example"] : []),
    ]);
    const done = await scaffold({
      cwd: dir,
      dir,
      name: this.displayName,
      openapi: this.openapi,
      example: this.example,
      dryRun: this.dryRun,
      resume: ["inter", ...resumeArgs.args].map(quote).join(" "),
      resumeArgs,
    });
    const plan = {
      workspace: dir,
      identity: { display_name: done.choices.name, binary: done.choices.binary, package: `${done.choices.binary}-cli` },
      targets: { cli: { outDir: "dist" }, eval: done.choices.example ? { plan: "evals/eval-plan.json" } : null },
      files: done.steps
        .filter((s) => !s.path.startsWith(".agents/") && !s.path.startsWith(".claude/"))
        .map(({ write: _w, ...s }) => s),
      skills: done.steps
        .filter((s) => s.path.startsWith(".agents/skills/") || s.path.startsWith(".claude/skills/"))
        .map(({ write: _w, ...s }) => s),
    };
    const next_actions = [
      {
        command: "inter",
        args: ["--json", "status", "--project-dir", dir],
        cwd: dir,
        ...(this.dryRun ? { after: "this plan is applied (the same command without --dry-run)" } : {}),
      },
    ];
    return {
      data: { ...done.data, workspace_prepared: !this.dryRun && done.data.conflicts === 0, plan, next_actions },
      human: done.human,
    };
  }
}
