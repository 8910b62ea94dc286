import { join } from "node:path";
import { toProjectPath } from "../engine/graph/files.js";
import type { InterConfig } from "../config/types.js";
import type { DepResult, TaskSpec } from "../engine/graph/task.js";
import type { OperationModel } from "../stages/openapi/model.js";
import type { DiscoverData } from "./discover.js";
import { BUILD_DIR } from "../config/project-paths.js";
import { writeBuildJson } from "./io.js";

export const OPERATIONS_FILE = `${BUILD_DIR}/operations.json`;

const openapiInputs = (dep: DepResult) => (dep.data as DiscoverData).inputs.openapi;

/** Several documents join into one model; the first one's servers and metadata lead. */
function merge(models: OperationModel[]): OperationModel {
  const [first, ...rest] = models;
  return rest.reduce<OperationModel>(
    (acc, m) => ({
      ...acc,
      source: { ...acc.source, files: [...new Set([...acc.source.files, ...m.source.files])].sort() },
      servers: acc.servers.length ? acc.servers : m.servers,
      securitySchemes: { ...m.securitySchemes, ...acc.securitySchemes },
      tags: [...acc.tags, ...m.tags.filter((t) => !acc.tags.some((a) => a.name === t.name))],
      operations: [...acc.operations, ...m.operations],
      skipped: [...acc.skipped, ...m.skipped],
    }),
    first!,
  );
}

export function openapiTask(_config: InterConfig): TaskSpec {
  return {
    id: "openapi",
    kind: "builtin",
    description: "Parse the OpenAPI document(s) into the normalized operation model",
    impl: "1",
    deps: ["discover"],
    uses: { discover: openapiInputs },
    config: null,
    inputs: [],
    outputs: [OPERATIONS_FILE],
    env: [],
    async run(ctx) {
      const files = openapiInputs(ctx.deps.discover!);
      // Loaded on first use: the parser is most of inter's code, and a warm no-op build never needs it.
      const { readOperationModel } = await import("../stages/openapi/normalize.js");
      const results = [];
      for (const file of files) results.push(await readOperationModel(join(ctx.root, file.path), ctx.root));
      const model = merge(results.map((r) => r.model));
      // Paths in the model are project-relative: absolute ones would make the cache machine-specific.
      const rel = (abs: string) => toProjectPath(ctx.root, abs);
      const portable: OperationModel = {
        ...model,
        source: { ...model.source, file: rel(model.source.file), files: model.source.files.map(rel) },
      };
      writeBuildJson(ctx.root, OPERATIONS_FILE, portable);
      return {
        data: {
          specVersion: model.source.specVersion,
          title: model.source.title,
          operations: model.operations.length,
          skipped: model.skipped.length,
        },
        warnings: results.flatMap((r) => r.warnings.map((w) => w.replaceAll(`${ctx.root}/`, ""))),
        reads: model.source.files,
      };
    },
  };
}
