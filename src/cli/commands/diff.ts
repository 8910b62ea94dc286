import { Command, Option } from "clipanion";
import * as t from "typanion";
import { resolve } from "node:path";
import { InterError } from "../../core/errors.js";
import { count } from "../../core/plural.js";
import { BaseCommand, type CommandResult } from "../base.js";
import { requireCandidate } from "../candidate-lookup.js";

export class DiffCommand extends BaseCommand {
  static paths = [["diff"]];
  static usage = Command.Usage({
    description:
      "What changed for the agents between two candidates: commands, flags, outputs, errors, Skills, with a semver verdict",
    details:
      "OLD and NEW are candidates: a cli.tgz, an unpacked package folder, or a project folder (meaning the cli.tgz its last build wrote). Each change is breaking, non-breaking or informational, with the operation and its place in the OpenAPI document when the candidate records them. The verdict is major, minor or patch. --fail-on breaking exits 1 while a breaking change is not accepted by the --ignore file (docs/diff.md); --format markdown prints a pull-request comment.",
    examples: [
      ["Compare the published candidate with this build", "inter diff published/cli.tgz dist/cli.tgz"],
      ["Gate a pull request", "inter diff published/cli.tgz dist/cli.tgz --fail-on breaking --ignore diff-ignore.yaml"],
      [
        "Markdown for a pull-request comment",
        "inter diff published/cli.tgz dist/cli.tgz --format markdown > surface.md",
      ],
    ],
  });
  old = Option.String({ name: "old" });
  new = Option.String({ name: "new" });
  format = Option.String("--format", {
    description: "text (default) or markdown",
    validator: t.isEnum(["text", "markdown", "md"]),
  });
  failOn = Option.String("--fail-on", {
    description: "breaking: exit 1 while a breaking change is not accepted by --ignore; none (default): exit 0",
    validator: t.isEnum(["breaking", "none"]),
  });
  ignore = Option.String("--ignore", {
    description: "A JSON or YAML file of accepted changes, each with its reason (docs/diff.md)",
  });

  async run(): Promise<CommandResult> {
    const cwd = this.cwd ?? process.cwd();
    const [
      { readSurface },
      { diffSurfaces },
      { diffText, diffMarkdown, productsWarning },
      { loadIgnoreFile },
      { bumpWords },
    ] = await Promise.all([
      import("../../surface/read-surface.js"),
      import("../../surface/report.js"),
      import("../../surface/render.js"),
      import("../../surface/ignore.js"),
      import("../../surface/verdict.js"),
    ]);
    const ignore = this.ignore ? await loadIgnoreFile(resolve(cwd, this.ignore), this.ignore) : [];
    const before = await readSurface(await requireCandidate(undefined, this.old, cwd, { folders: true }), this.old);
    const after = await readSurface(await requireCandidate(undefined, this.new, cwd, { folders: true }), this.new);
    const diff = diffSurfaces(before, after, ignore);
    const text = this.format === "markdown" || this.format === "md" ? diffMarkdown(diff) : diffText(diff);
    if (this.failOn === "breaking" && diff.unaccepted_breaking) {
      if (!this.json) process.stdout.write(text);
      const ids = diff.changes.filter((c) => c.severity === "breaking" && !c.accepted).map((c) => c.id);
      const breaking = diff.changes.filter((c) => c.severity === "breaking").length;
      const accepted = breaking > diff.unaccepted_breaking ? ` not accepted (of ${breaking})` : "";
      const products = productsWarning(diff);
      const suggestion =
        products ??
        `Restore what callers rely on, or accept each change in an ignore file with its reason (--ignore, docs/diff.md) and ${bumpWords(diff.old.version, diff.verdict, diff.expected_version)}.`;
      throw new InterError(
        "SURFACE_BREAKING",
        `${count(diff.unaccepted_breaking, "breaking change")}${accepted} from ${this.old} to ${this.new}: ${ids.slice(0, 3).join("; ")}${ids.length > 3 ? `; and ${ids.length - 3} more` : ""}.`,
        suggestion,
        { diff },
      );
    }
    return { data: diff, human: text };
  }
}
