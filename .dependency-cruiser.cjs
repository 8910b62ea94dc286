// The direction rule of the source tree (README, "Layout"): each layer imports only its own layer and those below.
//   cli → pipeline / evaluation → stages → engine → config → core
// model (the design loop's model client) sits at the stages' level but imports core only.
// Run by `npm test` (`npm run check:layers`); a back-pointing import or a cycle fails it.
const LAYERS = [
  ["core", ["^src/core/"]],
  ["config", ["^src/config/"]],
  ["engine", ["^src/(graph|cache|engine)/"]],
  ["stages", ["^src/(openapi|design|emit|inspect|plan|services|runtime|surface)/"]],
  ["model", ["^src/model/"]],
  ["pipeline", ["^src/(tasks|pipeline)/"]],
  ["evaluation", ["^src/evaluation/"]],
  ["cli", ["^src/(cli|init|status)/", "^src/index\\.ts$"]],
];
// pipeline and evaluation share a level: the evaluate task runs the evaluation.
const LEVEL = { core: 0, config: 1, engine: 2, stages: 3, model: 3, pipeline: 4, evaluation: 4, cli: 5 };
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
    { name: "model-imports-core-only", severity: "error", comment: "The model client imports only src/core (and itself).", from: { path: "^src/model/" }, to: { path: "^src/", pathNot: ["^src/(core|model)/"] } },
    { name: "every-file-has-a-layer", severity: "error", comment: "A source file outside every layer.", from: { path: "^src/", pathNot: LAYERS.flatMap(([, p]) => p) }, to: {} },
  ],
  options: { tsPreCompilationDeps: true, doNotFollow: { path: "node_modules" }, tsConfig: { fileName: "tsconfig.json" }, exclude: { path: "node_modules" } },
};
