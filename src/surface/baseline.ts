/**
 * The build's comparison with the last published candidate (`targets.cli.baseline`, docs/diff.md): the diff of the
 * package being emitted against it, the CHANGELOG.md written from that diff, and the VERSION_NOT_BUMPED warning.
 */
import { existsSync } from "node:fs";
import { count } from "../core/words.js";
import { readCandidate } from "./candidate.js";
import { changelogSection } from "./render.js";
import { diffSurfaces, type SurfaceDiff } from "./report.js";
import { surfaceOf } from "./surface.js";

export interface BaselineSummary {
  baseline: string;
  baselineVersion: string;
  verdict: SurfaceDiff["verdict"];
  expectedVersion?: string;
  versionFollows: boolean;
  counts: SurfaceDiff["counts"];
  /** The first few changes, breaking first, for `inter status`. */
  highlights: string[];
}

export interface BaselineResult {
  summary?: BaselineSummary;
  changelog?: string;
  warnings: string[];
}

/** `files`: the package being emitted (path → content); `path`: the baseline, resolved; `label`: as configured; `candidate`: where the new cli.tgz goes. */
export async function compareWithBaseline(files: Map<string, string>, path: string, label: string, candidate: string): Promise<BaselineResult> {
  if (!existsSync(path)) return { warnings: [`BASELINE_MISSING: targets.cli.baseline names ${label}, which does not exist; CHANGELOG.md is written as a first version. Put the last published cli.tgz there (e.g. \`npm pack <package>@latest\`).`] };
  const before = await readCandidate(path, label);
  const after = surfaceOf("this build", files);
  const diff = diffSurfaces(before, after);
  const warnings = diff.versionFollows
    ? []
    : [`VERSION_NOT_BUMPED: product.version is ${diff.new.version}, but the changes since ${label} (${diff.old.version}) are ${diff.verdict} (${count(diff.counts.breaking, "breaking change")}); it should be at least ${diff.expectedVersion}. See \`inter diff ${label} ${candidate}\`.`];
  const changelog = `# Changelog\n\nBreaking changes are marked **BREAKING**. Written by inter from the changes since the published ${diff.old.version}.\n\n${changelogSection(diff)}\n## ${diff.old.version}\n\n- The published baseline (${label}).\n`;
  return {
    summary: {
      baseline: label,
      baselineVersion: diff.old.version,
      verdict: diff.verdict,
      ...(diff.expectedVersion ? { expectedVersion: diff.expectedVersion } : {}),
      versionFollows: diff.versionFollows,
      counts: diff.counts,
      highlights: diff.changes.slice(0, 5).map((c) => `${c.severity}: ${c.reason}`),
    },
    changelog,
    warnings,
  };
}
