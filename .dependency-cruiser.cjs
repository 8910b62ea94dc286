// The direction rule of the source tree (docs/architecture.md): each folder under src/ is a layer, and each layer
// imports only its own and those below it:
//   cli → pipeline / evaluation → stages / surface → engine → config → core
// surface (what a candidate promises callers, for `inter diff`, `inter publish` and the build's baseline) reads
// candidates through stages/candidate, beside the stages rather than one of them.
// Two layers stand apart, each importing only core: runtime (the code that ships inside every generated CLI, so it may
// carry nothing of inter) and model (the design loop's model client). Anything above may import them.
// Run by `npm test` (`npm run check:layers`); a back-pointing import, a cycle or a file outside every layer fails it.
const LAYERS = [
  ["core", ["^src/core/"]],
  ["runtime", ["^src/runtime/"]],
  ["config", ["^src/config/"]],
  ["engine", ["^src/engine/"]],
  ["stages", ["^src/stages/"]],
  ["surface", ["^src/surface/"]],
  ["model", ["^src/model/"]],
  ["pipeline", ["^src/pipeline/"]],
  ["evaluation", ["^src/evaluation/"]],
  ["cli", ["^src/cli/", "^src/index\\.ts$"]],
];
// pipeline and evaluation share a level: the evaluate task runs the evaluation.
const LEVEL = { core: 0, runtime: 1, config: 1, engine: 2, stages: 3, surface: 3, model: 3, pipeline: 4, evaluation: 4, cli: 5 };
const pathsOf = (names) => LAYERS.filter(([n]) => names.includes(n)).flatMap(([, p]) => p);

module.exports = {
  forbidden: [
    { name: "no-cycles", severity: "error", comment: "Modules import each other in a circle.", from: { path: "^src/" }, to: { circular: true } },
    ...LAYERS.filter(([name]) => Object.values(LEVEL).some((level) => level > LEVEL[name])).map(([name, paths]) => ({
      name: `${name}-imports-upward`,
      severity: "error",
      comment: `${name} may import only its own layer and those below it.`,
      from: { path: paths },
      to: { path: pathsOf(Object.keys(LEVEL).filter((other) => LEVEL[other] > LEVEL[name])) },
    })),
    { name: "runtime-imports-core-only", severity: "error", comment: "The generated CLI's runtime imports only src/core (and itself): it ships inside every candidate.", from: { path: "^src/runtime/" }, to: { path: "^src/", pathNot: ["^src/(core|runtime)/"] } },
    { name: "model-imports-core-only", severity: "error", comment: "The model client imports only src/core (and itself).", from: { path: "^src/model/" }, to: { path: "^src/", pathNot: ["^src/(core|model)/"] } },
    { name: "every-file-has-a-layer", severity: "error", comment: "A source file outside every layer.", from: { path: "^src/", pathNot: LAYERS.flatMap(([, p]) => p) }, to: {} },
  ],
  options: { tsPreCompilationDeps: true, doNotFollow: { path: "node_modules" }, tsConfig: { fileName: "tsconfig.json" }, exclude: { path: "node_modules" } },
};
