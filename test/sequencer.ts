/**
 * The order test files start in. With a few workers on two cores the run ends when its longest file does, so the long
 * ones must start first and the short ones fill the end. vitest orders by the durations it recorded in an earlier run;
 * a clean clone (CI) has none, and vitest then starts the largest files first, which puts unit files of many small
 * cases among the end-to-end ones and an end-to-end file of few lines last. Without a recorded duration for every
 * file, a file's expected cost is instead the number of programs its text starts (each `inter` run, build or install
 * costs about a second of CPU, far more than any assertion).
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Calls that start a program (inter, npm, a generated CLI, a server) or build a project, as the tests write them. */
const STARTS_PROGRAM =
  /\b(inter|spawnInter|execa|execFile|spawn|buildAndInstall|evaluationFolder|exampleProject|startExampleApi)\(|"build"/g;

/** How many programs a test file's text starts, as an estimate of its cost. */
export function programsStarted(source: string): number {
  return source.match(STARTS_PROGRAM)?.length ?? 0;
}

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const recorded = (file: TestSpecification) =>
      this.ctx.cache.getFileTestResults(`${file.project.name}:${relative(this.ctx.config.root, file.moduleId)}`);
    if (files.every((file) => recorded(file)?.duration)) return super.sort(files);
    const cost = new Map(files.map((file) => [file, programsStarted(readFileSync(file.moduleId, "utf8"))]));
    return [...files].sort((a, b) => cost.get(b)! - cost.get(a)!);
  }
}
