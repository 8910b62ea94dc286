import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * The `$schema` of a file inter writes into `folder` (eval-plan.json, trigger query sets): a path that works in any
 * checkout of the project, never one through where inter itself happens to sit on this machine. The project is the
 * nearest folder above holding package.json (found on the path as given: a symlinked checkout keeps its shape);
 * the schema is the intermesh package's copy as the project installs it, node_modules/intermesh/schemas/<name>, as
 * `inter init` writes it (src/cli/init/templates.ts) — or schemas/<name> in intermesh's own repository. Outside any
 * project, or in one that does not install intermesh, the schema's `$id`: a stable name an editor can map, and
 * nothing machine-specific.
 */
export function schemaRef(folder: string, name: string): string {
  for (let dir = resolve(folder); ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      const own = packageName(manifest) === "intermesh";
      const target = own ? join(dir, "schemas", name) : join(dir, "node_modules", "intermesh", "schemas", name);
      // A project that does not install intermesh (inter run from elsewhere) would get a path to nothing.
      if (own || existsSync(join(dir, "node_modules", "intermesh", "package.json"))) return relative(resolve(folder), target).split("\\").join("/");
      return idOf(name);
    }
    if (dirname(dir) === dir) return idOf(name);
  }
}

const idOf = (name: string) => `https://intermesh.dev/schemas/${name}`;

function packageName(file: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(file, "utf8")) as { name?: unknown }).name as string | undefined;
  } catch {
    return undefined;
  }
}
