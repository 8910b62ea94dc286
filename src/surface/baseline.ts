/**
 * The build's comparison with the last published candidate (`targets.cli.baseline`, docs/diff.md): the diff of the
 * package being emitted against it, the CHANGELOG.md written from that diff, and the VERSION_NOT_BUMPED warning.
 */
import { existsSync } from "node:fs";
import { count } from "../core/plural.js";
import { readSurface } from "./read-surface.js";
import { changelogSection } from "./render.js";
import { diffSurfaces, type SurfaceDiff } from "./report.js";
import { surfaceOf } from "./surface.js";

export interface BaselineSummary {
  baseline: string;
  baseline_version: string;
  verdict: SurfaceDiff["verdict"];
  expected_version?: string;
  version_follows: boolean;
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
export async function compareWithBaseline(
  files: Map<string, string>,
  path: string,
  label: string,
  candidate: string,
): Promise<BaselineResult> {
  if (!existsSync(path))
    return {
      warnings: [
        `BASELINE_MISSING: targets.cli.baseline names ${label}, which does not exist; CHANGELOG.md is written as a first version. Put the last published cli.tgz there (e.g. \`npm pack <package>@latest\`).`,
      ],
    };
  const before = await readSurface(path, label);
  const after = surfaceOf("this build", files);
  const diff = diffSurfaces(before, after);
  const warnings = diff.version_follows
    ? []
    : [
        `VERSION_NOT_BUMPED: product.version is ${diff.new.version}, but the changes since ${label} (${diff.old.version}) are ${diff.verdict} (${count(diff.counts.breaking, "breaking change")}); it should be at least ${diff.expected_version}. See \`inter diff ${label} ${candidate}\`.`,
      ];
  // Two headings of one version would say two things about it: the baseline's own entry only when the version moved.
  const published =
    diff.old.version === diff.new.version ? "" : `\n## ${diff.old.version}\n\n- The published baseline (${label}).\n`;
  const changelog = `# Changelog\n\nBreaking changes are marked **BREAKING**. Written by inter from the changes since the published ${diff.old.version}.\n\n${changelogSection(diff)}${published}`;
  return {
    summary: {
      baseline: label,
      baseline_version: diff.old.version,
      verdict: diff.verdict,
      ...(diff.expected_version ? { expected_version: diff.expected_version } : {}),
      version_follows: diff.version_follows,
      counts: diff.counts,
      highlights: diff.changes.slice(0, 5).map((c) => `${c.severity}: ${c.reason}`),
    },
    changelog,
    warnings,
  };
}
