import { Command, Option } from "clipanion";
import { buildTaskIds } from "../../pipeline/pipeline.js";
import type { BundleData } from "../../pipeline/bundle.js";
import type { InspectData } from "../../pipeline/inspect.js";
import { count } from "../../core/plural.js";
import { finishedData, type TaskOutcome } from "../../engine/graph/outcome.js";
import type { CommandResult } from "../base.js";
import { RemoteCacheCommand } from "../remote-cache-command.js";
import { executeGraph } from "../execute-graph.js";
import { openProject } from "../project.js";
import { startTrail, stopTrail } from "../../engine/cache/trail.js";
import { envDigest } from "../noop-record.js";
import { recordNoop, teeStderr } from "../noop-writer.js";
import { toInterError } from "../../core/errors.js";
import type { Project } from "../project.js";
import { runSuggest, suggestSummary, type SuggestRun } from "../suggest-run.js";

export class BuildCommand extends RemoteCacheCommand {
  static paths = [["build"]];
  static usage = Command.Usage({
    description: "Build every target except the evaluation, re-running only tasks whose inputs changed",
    details:
      "Runs the task graph (discover → design → emit → bundle → inspect → validate, plus your own tasks) with content-hash caching. Progress goes to stderr; with --json, stdout carries one JSON document with every task's status. With --watch it then watches every input (the config and its imports, the OpenAPI files and what they $ref, context.md, plans, your tasks' inputs) and rebuilds after each change; --json then streams one JSON event per line (cycle-start, task, cycle-end, stopped). Ctrl-C stops it (exit 130).",
    examples: [
      ["Rebuild on every save", "inter build --watch"],
      ["Build the project", "inter build"],
      ["Rebuild everything, ignoring the cache", "inter build --force"],
      ["Machine-readable result", "inter build --json"],
    ],
  });

  watch = Option.Boolean("--watch", false, {
    description: "After building, rebuild whenever an input changes; --json streams NDJSON events",
  });
  suggest = Option.Boolean("--suggest", true, {
    description:
      "With design.model configured, first ask the model what the overlay does not answer yet (default); --no-suggest builds from the overlay as it is",
  });

  async run(): Promise<CommandResult> {
    if (this.watch) {
      const { watchBuild } = await import("../watch.js");
      return {
        data: undefined,
        exitCode: await watchBuild({
          cwd: this.cwd,
          config: this.configFile,
          select: buildTaskIds,
          json: this.json,
          concurrency: this.parallelism,
          force: this.force,
          remote: this.remoteMode,
        }),
      };
    }
    // Exactly `inter build` (or `inter build --json`) is what the no-op fast path answers, so only it leaves a record.
    const plain =
      this.cwd === undefined &&
      this.configFile === undefined &&
      this.concurrency === undefined &&
      !this.force &&
      this.remoteMode === "auto";
    const plainOutput = this.json || !process.stderr.isTTY || !!process.env.CI;
    const recording = plain && plainOutput && !process.env.INTER_NO_FAST_PATH;
    const context = { json: this.json, cwd: process.cwd(), env: recording ? envDigest() : "" };
    const trail = recording ? startTrail() : undefined;
    try {
      const project = await openProject({ cwd: this.cwd, config: this.configFile });
      const design = this.suggest ? await suggestFirst(project, this.json, this.parallelism) : undefined;
      const build = async () => {
        const run = await executeGraph(project, buildTaskIds(project.graph), {
          json: this.json,
          concurrency: this.parallelism,
          force: this.force,
          remote: this.remoteMode,
        });
        if (!this.json) printCandidate(run.tasks);
        return run;
      };
      const { value: data, text } =
        recording && !this.json ? await teeStderr(build) : { value: await build(), text: undefined };
      if (trail) {
        try {
          recordNoop(project, data, trail, { ...context, stderr: text });
        } catch {
          // a record is an optimisation: failing to save one changes nothing
        }
      }
      return { data: design ? { ...data, design } : data };
    } finally {
      if (trail) stopTrail();
    }
  }
}

/**
 * With design.model configured, the build first asks the model what the overlay lacks. The candidate depends on the
 * overlay alone: without the key or the network the build goes on with the overlay as it is, and says so.
 */
async function suggestFirst(
  project: Project,
  json: boolean,
  concurrency: number,
): Promise<SuggestRun | { skipped: string } | undefined> {
  const settings = project.loaded.config.design?.model;
  if (!settings) return undefined;
  const say = (line: string) => void (json ? undefined : process.stderr.write(`${line}\n`));
  if (settings.keyEnv !== undefined && !process.env[settings.keyEnv]) {
    const reason = `${settings.keyEnv} is not set, so the model was not asked; the overlay applies as it is`;
    say(`⚠ design: ${reason}`);
    return { skipped: reason };
  }
  try {
    const run = await runSuggest(project, { refresh: false, json, concurrency });
    say(`design: ${suggestSummary(run)}`);
    return run;
  } catch (error) {
    const err = toInterError(error);
    if (err.code === "INTERRUPTED") throw err;
    const reason = `${err.code}: ${err.message}`;
    say(`⚠ design: the model was not asked to the end (${reason}); the overlay applies as it is`);
    return { skipped: reason };
  }
}

/** The candidate and its certification, the last lines a person reads after a build (or `inter run cli`). */
export function printCandidate(tasks: TaskOutcome[]): void {
  const bundle = finishedData(tasks, "bundle") as BundleData | undefined;
  const inspect = finishedData(tasks, "inspect") as InspectData | undefined;
  if (bundle) process.stderr.write(`candidate ${bundle.file}  sha256:${bundle.candidate}\n`);
  if (inspect)
    process.stderr.write(
      `certified ${inspect.level}: ${inspect.pass} pass, ${inspect.fail} fail, ${inspect.notApplicable} not applicable (${inspect.receipt})${inspect.blocking.length ? `; next level blocked by ${inspect.blocking.join(", ")}` : ""}\n${(
        inspect.why ?? []
      )
        .map((w) => `  ${w.id}: ${w.why}\n`)
        .join("")}`,
    );
  if (inspect?.apiNotJudged) process.stderr.write(`api: not judged (${inspect.apiNotJudged})\n`);
  if (inspect?.wire)
    process.stderr.write(
      inspect.wire.notRun
        ? `wire: requests not validated (${inspect.wire.notRun}); ${count(inspect.wire.inexpressible, "operation")} cannot be expressed\n`
        : `wire: ${count(inspect.wire.checked, "sampled request")} validated, ${inspect.wire.invalid} rejected by the description; ${count(inspect.wire.inexpressible, "operation")} cannot be expressed\n`,
    );
}
