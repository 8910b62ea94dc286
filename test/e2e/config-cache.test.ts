import { spawn } from "node:child_process";
import { cpSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  config,
  groupMembers,
  INTER_BIN,
  inter,
  makeProject,
  nodeCommand,
  read,
  tempDir,
  writeFiles,
} from "../helpers.js";

// The compiled config (src/config/compile.ts) is cached in .intermesh/config/ and moves with the project: a copy starts
// warm, and `import.meta.*` in the config name the folder it is loaded from, never the one it was compiled in.
const CONFIG_CACHE = ".intermesh/config";

/**
 * A repository whose project (app/) has a config whose one task writes what the config computed from import.meta, and
 * a label from a helper beside the project (../shared/, as in a monorepo).
 */
function metaRepository(): string {
  return makeProject({
    "shared/where.ts": `export const label = "first";\n`,
    "app/intermesh.config.ts": config(`{
  product: { name: "Rooms", binary: "rooms" },
  inputs: { openapi: "openapi.yaml", context: "context.md" },
  tasks: {
    meta: {
      command: ${nodeCommand('require("fs").writeFileSync("meta.json", process.argv[1])').slice(0, -1)}, JSON.stringify({
        dirname: import.meta.dirname,
        filename: import.meta.filename,
        url: import.meta.url,
        label,
      })],
      outputs: ["meta.json"],
    },
  },
}`).replace(
      'import { defineConfig } from "intermesh";',
      'import { defineConfig } from "intermesh";\nimport { label } from "../shared/where";',
    ),
    "app/openapi.yaml": "openapi: 3.1.0\ninfo: { title: Rooms, version: 1.0.0 }\npaths: {}\n",
    "app/context.md": "# Rooms\n",
  });
}

/** Each file of the config cache with its modification time: unchanged when nothing was compiled again. */
const cacheState = (dir: string) =>
  Object.fromEntries(
    readdirSync(join(dir, CONFIG_CACHE))
      .sort()
      .map((name) => [name, statSync(join(dir, CONFIG_CACHE, name)).mtimeMs]),
  );

describe("the compiled config's cache", () => {
  it("serves a copy of the project from its new folder, with import.meta naming that folder", async () => {
    const firstRepository = metaRepository();
    const first = join(firstRepository, "app");
    const built = await inter(first, ["run", "meta", "--json"]);
    expect(built.exitCode, built.stderr).toBe(0);
    expect(JSON.parse(read(first, "meta.json"))).toEqual({
      dirname: first,
      filename: join(first, "intermesh.config.ts"),
      url: `file://${join(first, "intermesh.config.ts")}`,
      label: "first",
    });
    const manifest = JSON.parse(read(first, `${CONFIG_CACHE}/manifest.json`));
    // Nothing of the project's own path is kept: the files are named from the project folder.
    expect(JSON.stringify(manifest)).not.toContain(firstRepository);
    const module = readFileSync(join(first, CONFIG_CACHE, manifest.output), "utf8");
    expect(module).not.toContain(firstRepository);

    const copyRepository = tempDir();
    cpSync(firstRepository, copyRepository, { recursive: true });
    const copy = join(copyRepository, "app");
    const before = cacheState(copy);
    const moved = await inter(copy, ["run", "meta", "--json"]);
    expect(moved.exitCode, moved.stderr).toBe(0);
    // Warm: the same module, not compiled again.
    expect(cacheState(copy)).toEqual(before);
    expect(JSON.parse(read(copy, "meta.json"))).toEqual({
      dirname: copy,
      filename: join(copy, "intermesh.config.ts"),
      url: `file://${join(copy, "intermesh.config.ts")}`,
      label: "first",
    });

    // A source edited in the copy — beside the project, not in it — is compiled again there; the first keeps its own.
    writeFiles(copyRepository, { "shared/where.ts": `export const label = "second";\n` });
    const edited = await inter(copy, ["run", "meta", "--json"]);
    expect(edited.exitCode, edited.stderr).toBe(0);
    expect(JSON.parse(read(copy, "meta.json")).label).toBe("second");
    expect(cacheState(copy)).not.toEqual(before);
    const again = await inter(first, ["run", "meta", "--json"]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(read(first, "meta.json"))).toMatchObject({ dirname: first, label: "first" });
  });

  // esbuild compiles the config in a service process of its own. inter stops and reaps it (src/config/compile.ts);
  // left running as inter exits, it ends on its own and waits, exited, for the system's first process to reap it —
  // which in a container may never happen. Where that first process does reap, this test passes either way.
  it("a command that compiles the config leaves no process of its group behind, not even an exited one", async () => {
    const project = join(metaRepository(), "app");
    const child = spawn("node", [INTER_BIN, "run", "meta", "--json"], {
      cwd: project,
      env: { ...process.env, CI: "true" },
      stdio: "ignore",
      detached: true,
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(0);
    expect(readdirSync(join(project, CONFIG_CACHE)).some((f) => f.endsWith(".cjs"))).toBe(true);
    expect(groupMembers(child.pid!)).toEqual([]);
  });
});
