import { projectPaths } from "../config/project-paths.js";
import type { InterConfig } from "../config/types.js";
import type { CommandsPlan, SkillsPlan } from "../stages/design/types.js";
import type { TaskSpec } from "../engine/graph/task.js";
import { COMMANDS_FILE } from "./commands.js";
import { capabilitiesText } from "./capabilities-text.js";
import { readDepJson, writeJsonForDependents } from "./io.js";
import { SKILLS_FILE } from "./skills.js";
import type { OperationModel } from "../stages/openapi/model.js";
import { OPERATIONS_FILE } from "./openapi.js";

/** capabilities.json: the complete, deterministic plan of the CLI (schemas/capabilities.schema.json). */
export function designTask(config: InterConfig): TaskSpec {
  const paths = projectPaths(config);
  const file = paths.capabilities;
  return {
    id: "design",
    kind: "builtin",
    description: `Write ${file}: the complete plan of the CLI`,
    impl: "2",
    deps: ["openapi", "commands", "skills"],
    config: { outDir: paths.outDir, overlay: paths.overlay },
    // The overlay is the reviewed file itself: its content keys this task, so the candidate follows it.
    inputs: [paths.overlay],
    outputs: [file],
    env: [],
    async run(ctx) {
      const [{ assembleCapabilities }, { applyOverlay }, { readOverlay }] = await Promise.all([
        import("../stages/design/capabilities.js"),
        import("../stages/design/overlay.js"),
        import("../stages/design/overlay-file.js"),
      ]);
      const rules = {
        commands: readDepJson<CommandsPlan>(ctx, "commands", COMMANDS_FILE),
        skills: readDepJson<SkillsPlan>(ctx, "skills", SKILLS_FILE),
      };
      const overlayFile = (ctx.slice as { overlay: string }).overlay;
      const overlay = await readOverlay(ctx.root, overlayFile);
      // The operation model (the largest intermediate file) is read only when the overlay renames groups' commands.
      const { commands, skills, report } = applyOverlay(
        () => readDepJson<OperationModel>(ctx, "openapi", OPERATIONS_FILE),
        rules.commands,
        rules.skills,
        overlay,
      );
      const caps = assembleCapabilities(commands, skills);
      const { text, commandsDigest, plain } = capabilitiesText(caps);
      writeJsonForDependents(ctx.root, file, text, caps, plain);
      const warnings = [
        ...report.rejected.map(
          (r) => `${overlayFile}: ${r.entry} not applied: ${r.reason}; the rules' design stands there`,
        ),
        ...report.stale.map(
          (s) => `${overlayFile}: ${s}; run \`inter design suggest\` to ask again (the rules' design stands there)`,
        ),
      ];
      return {
        data: {
          file,
          commands: commands.commands.length,
          skills: skills.skills.length,
          commandsDigest,
          overlay: {
            file: overlayFile,
            applied: report.applied.length,
            rejected: report.rejected,
            stale: report.stale.length,
          },
        },
        warnings,
      };
    },
  };
}
