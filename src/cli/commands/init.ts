import { Command, Option } from "clipanion";
import { existsSync, mkdirSync, statSync } from "node:fs";
import { basename, relative, resolve } from "node:path";
import { InterError } from "../../errors.js";
import { BaseCommand, type CommandResult } from "../base.js";

const quote = (s: string) => (/^[\w./:@=-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);

export class InitCommand extends BaseCommand {
  static paths = [["init"]];
  static usage = Command.Usage({
    description: "Scaffold a project: config, brief skeleton, evals/, .gitignore lines, and inter's own Skills for agents",
    details:
      "Writes intermesh.config.ts, inputs/context.md (a commented skeleton), evals/README.md and the .gitignore lines, and installs inter's Skills into .agents/skills/ (linked from .claude/skills/ when .claude/ exists). --openapi names your OpenAPI document; without it the config expects inputs/openapi.yaml and `inter status` reports it missing. --example scaffolds the complete Rooms example instead (API server, brief, plan), ready for `inter run eval`. A file inter init did not write is never overwritten: it is kept, or reported as a conflict with the decision it needs. Running it again changes nothing; --dry-run prints every step without writing.",
    examples: [
      ["Start a project for your API", "inter init --name Acme --openapi openapi.yaml"],
      ["See what it would write", "inter init --dir acme --name Acme --dry-run"],
      ["The complete example, ready to evaluate", "inter init --dir rooms-demo --example"],
    ],
  });
  dir = Option.String("--dir", { description: "Folder to scaffold (default: the working directory); created if missing" });
  name = Option.String("--name", { description: "Product name (default: the folder's name); the binary name is derived from it" });
  openapi = Option.String("--openapi", { description: "Path of your OpenAPI document, relative to the folder" });
  example = Option.Boolean("--example", false, { description: "Scaffold the Rooms example: its API server, OpenAPI, brief and evaluation plan" });
  dryRun = Option.Boolean("--dry-run", false, { description: "Print every step and whether its file exists; write nothing" });

  async run(): Promise<CommandResult> {
    const cwd = this.cwd ?? process.cwd();
    const dir = resolve(cwd, this.dir ?? ".");
    if (existsSync(dir) && !statSync(dir).isDirectory()) throw new InterError("USAGE_ERROR", `${this.dir} is a file, not a folder.`, "Give --dir a folder (it is created if missing).", { dir });
    if (this.example && this.openapi) throw new InterError("USAGE_ERROR", "--example brings its own OpenAPI document; --openapi does not go with it.", "Drop one of the two flags.");
    const { binaryFor } = await import("../../init/templates.js");
    const { planInit, applyInit } = await import("../../init/init.js");
    const name = this.example ? "Rooms" : (this.name ?? basename(dir));
    const openapi = this.example ? "inputs/openapi.yaml" : this.openapi ? relative(dir, resolve(cwd, this.openapi)).split("\\").join("/") : "inputs/openapi.yaml";
    const choices = { name, binary: this.example ? "rooms" : binaryFor(name), openapi, openapiGiven: Boolean(this.openapi) || this.example, example: this.example };
    if (this.openapi && !existsSync(resolve(cwd, this.openapi))) throw new InterError("INPUT_NOT_FOUND", `--openapi ${this.openapi} does not exist.`, "Give the path of your OpenAPI document (YAML or JSON), relative to where you run inter init.", { path: resolve(cwd, this.openapi) });
    const steps = planInit(dir, choices);
    const resume = ["inter", "init", ...(this.dir ? ["--dir", this.dir] : []), ...(this.name ? ["--name", this.name] : []), ...(this.openapi ? ["--openapi", this.openapi] : []), ...(this.example ? ["--example"] : [])].map(quote).join(" ");
    if (!this.dryRun) {
      mkdirSync(dir, { recursive: true });
      applyInit(dir, steps, resume);
    }
    const next = [
      ...(!choices.openapiGiven ? [`Put your OpenAPI document at ${relative(cwd, resolve(dir, openapi)) || openapi} (or run \`${resume} --openapi <file>\`).`] : []),
      ...(!this.example ? ["Replace the TODOs in inputs/context.md with your product's brief (docs/context.md explains it)."] : []),
      `Run \`inter status${this.dir ? ` --cwd ${quote(this.dir)}` : ""}\` to see what is still missing, then \`inter build\`${this.example ? " and `ROOMS_API_KEY=rooms-demo-key inter run eval`" : ""}.`,
    ];
    const conflicts = steps.filter((s) => s.action === "conflict");
    const data = { dir, dryRun: this.dryRun, steps: steps.map(({ write: _write, ...s }) => s), conflicts: conflicts.length, next };
    const width = Math.max(...steps.map((s) => s.action.length));
    const human = [
      `${this.dryRun ? "inter init would write" : "inter init"} in ${dir}:`,
      ...steps.map((s) => `  ${s.action.padEnd(width)}  ${s.path}${s.reason ? ` — ${s.reason}` : ""}${s.decision ? `\n  ${" ".repeat(width)}  → decide: ${s.decision}` : ""}`),
      ...(conflicts.length ? [`${conflicts.length} conflict${conflicts.length > 1 ? "s" : ""} left untouched; everything else is in place.`] : []),
      "Next:",
      ...next.map((n) => `  - ${n}`),
    ].join("\n");
    return { data, human };
  }
}
