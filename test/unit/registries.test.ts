import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPORT_FILES, REPORT_FORMAT_NAMES, REPORT_FORMATS } from "../../src/evaluation/report/formats.js";
import { PRESET_NAMES, PRESETS } from "../../src/evaluation/sandbox/presets.js";
import { SCHEME_KINDS, schemeKindOf } from "../../src/runtime/schemes/index.js";

const SRC = join(import.meta.dirname, "..", "..", "src");
const modules = (folder: string, skip: string[]) =>
  readdirSync(join(SRC, folder))
    .filter((f) => f.endsWith(".ts") && !skip.includes(f))
    .map((f) => join(SRC, folder, f));

/**
 * Each kind of extension has one list: a module written and not registered would be dead code that the docs
 * (docs/architecture.md, "Where to add …") say is enough. These fail on exactly that.
 */
describe("registries of extensions", () => {
  it("every agent preset module is in PRESETS, under the name it gives, each name once", async () => {
    expect(Object.keys(PRESETS)).toEqual([...PRESET_NAMES]);
    expect(new Set(PRESET_NAMES).size).toBe(PRESET_NAMES.length);
    const registered = new Set(Object.values(PRESETS));
    const files = modules("evaluation/sandbox/presets", ["preset.ts"]);
    expect(files.length).toBe(PRESET_NAMES.length);
    for (const file of files) {
      const exported = Object.values(await import(file)).filter(
        (value) => typeof value === "object" && value !== null && "program" in value && "parse" in value,
      );
      expect(exported, file).toHaveLength(1);
      expect(registered.has(exported[0] as never), file).toBe(true);
    }
    for (const [name, preset] of Object.entries(PRESETS)) expect(preset.name).toBe(name);
  });

  it("every renderer of an evaluation's results is a report format, each with a file of its own", async () => {
    const loaded = new Set<unknown>();
    for (const format of REPORT_FORMAT_NAMES) loaded.add(await REPORT_FORMATS[format].load());
    const renderers: string[] = [];
    for (const file of modules("evaluation/report", ["write.ts", "formats.ts", "comparison.ts", "facts.ts"])) {
      for (const [name, value] of Object.entries(await import(file)))
        if (name.startsWith("render") && typeof value === "function") {
          renderers.push(name);
          expect(loaded.has(value), `${name} in ${file}`).toBe(true);
        }
    }
    expect(renderers).toHaveLength(REPORT_FORMAT_NAMES.length);
    expect(new Set(REPORT_FILES).size).toBe(REPORT_FORMAT_NAMES.length);
  });

  it("every kind of security scheme is in SCHEME_KINDS, and each scheme the document's reader makes has one kind", async () => {
    const registered = new Set<unknown>(Object.values(SCHEME_KINDS));
    const files = modules("runtime/schemes", ["kind.ts", "index.ts"]);
    expect(files.length).toBe(registered.size);
    for (const file of files) {
      const kinds = Object.values(await import(file)).filter(
        (value) => typeof value === "object" && value !== null && "carried" in value && "roles" in value,
      );
      expect(kinds, file).toHaveLength(1);
      expect(registered.has(kinds[0]), file).toBe(true);
    }
    const shapes = [
      { type: "apiKey", in: "header", name: "X-Key" },
      { type: "http", scheme: "bearer" },
      { type: "http", scheme: "basic" },
      { type: "http", scheme: "token" },
      { type: "oauth2" },
      { type: "openIdConnect" },
      { type: "apiKey", in: "header", name: "Authorization", signature: { kind: "aws-sigv4" } },
    ];
    const found = shapes.map((shape) => schemeKindOf(shape));
    // Each shape has a kind, and every kind is reached (OAuth 2 and OpenID Connect share one).
    expect(found.every(Boolean)).toBe(true);
    expect(new Set(found).size).toBe(registered.size);
    expect(schemeKindOf({ type: "mutualTLS" })).toBeUndefined();
  });
});
