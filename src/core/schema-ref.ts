import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { shippedFile } from "./shipped-files.js";

/**
 * The `$schema` of a file inter writes into `folder` (eval-plan.json, trigger query sets): a path that works in any
 * checkout of the project, never one through where inter itself happens to sit on this machine. Walking up from the
 * folder (on the path as given: a symlinked checkout keeps its shape), the first folder that installs intermesh
 * (node_modules/intermesh) gives node_modules/intermesh/schemas/<name>, as `inter init` writes it
 * (src/cli/init/templates.ts); intermesh's own repository gives schemas/<name>. Where nothing above installs it (inter
 * run from a global install or a link), the path to the schema this inter ships: it validates on this machine, and
 * installing intermesh in the project (`npm i -D intermesh`) makes the next draft's path hold in every checkout.
 */
export function schemaRef(folder: string, name: string): string {
  const from = resolve(folder);
  for (let dir = from; ; dir = dirname(dir)) {
    if (packageName(join(dir, "package.json")) === "intermesh")
      return relative(from, join(dir, "schemas", name))
        .split("\\")
        .join("/");
    if (existsSync(join(dir, "node_modules", "intermesh", "package.json")))
      return relative(from, join(dir, "node_modules", "intermesh", "schemas", name))
        .split("\\")
        .join("/");
    if (dirname(dir) === dir)
      return relative(from, shippedFile(join("schemas", name)))
        .split("\\")
        .join("/");
  }
}

function packageName(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return (JSON.parse(readFileSync(file, "utf8")) as { name?: unknown }).name as string | undefined;
  } catch {
    return undefined;
  }
}
