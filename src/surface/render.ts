/** `inter diff`'s human and Markdown output, and the candidate's CHANGELOG.md section written from a diff. */
import { count } from "../core/plural.js";
import type { SurfaceChange } from "./changes.js";
import type { SurfaceDiff } from "./report.js";
import { bumpWords } from "./verdict.js";

const LABEL = { breaking: "BREAKING", "non-breaking": "added", informational: "info" } as const;

const apiText = (c: SurfaceChange) =>
  c.api
    ? `${c.api.operation}${c.api.parameter ? `, ${c.api.parameter}` : ""}${c.api.pointer ? ` at ${c.api.pointer}` : ""}${c.api.document === "old" ? " (old document)" : ""}`
    : "";

function summary(diff: SurfaceDiff): string {
  const { counts } = diff;
  const parts = [
    count(counts.breaking, "breaking change"),
    count(counts.non_breaking, "non-breaking change"),
    count(counts.informational, "informational change"),
  ];
  return `${parts.join(", ")}${counts.accepted ? ` (${count(counts.accepted, "accepted by the ignore file", "accepted by the ignore file")})` : ""}`;
}

function versionLine(diff: SurfaceDiff): string {
  if (!diff.changes.length)
    return `Semver: no change; the version may stay ${diff.old.version} (the new candidate says ${diff.new.version})`;
  return `Semver: ${diff.verdict === "major" ? "breaking" : diff.verdict === "minor" ? "compatible additions" : "patch"}: ${bumpWords(diff.old.version, diff.verdict, diff.expected_version)}; the new candidate says ${diff.new.version}${diff.version_follows ? "" : " (VERSION_NOT_BUMPED)"}`;
}

/** The warning that the two candidates are not two versions of one CLI; undefined when they are. */
export function productsWarning(diff: SurfaceDiff): string | undefined {
  const d = diff.different_products;
  if (!d) return undefined;
  const what = [
    d.binary ? `binary ${d.binary.old} → ${d.binary.new}` : "",
    d.package ? `package ${d.package.old} → ${d.package.new}` : "",
  ]
    .filter(Boolean)
    .join(", ");
  return `These are different products (${what}): the changes below compare two CLIs, not two versions of one, and no version rule applies between them. Compare a candidate with an earlier build of the same product.`;
}

export function diffText(diff: SurfaceDiff): string {
  const warning = productsWarning(diff);
  const lines = [
    `${diff.old.binary} ${diff.old.version} (${diff.old.candidate}) → ${diff.new.binary} ${diff.new.version} (${diff.new.candidate})`,
    ...(warning ? [`⚠ ${warning}`] : []),
    summary(diff),
    versionLine(diff),
    "",
  ];
  if (!diff.changes.length) lines.push("No change to the commands, flags, outputs, Skills or rules.");
  for (const c of diff.changes) {
    lines.push(`${LABEL[c.severity].padEnd(8)} ${c.reason}${c.accepted ? `  [accepted: ${c.accepted}]` : ""}`);
    lines.push(`         id: ${c.id}${c.api ? `; API: ${apiText(c)}` : ""}`);
  }
  for (const u of diff.unused_ignores)
    lines.push(`note     the ignore file accepts "${u.change}", which is not among the changes`);
  return `${lines.join("\n")}\n`;
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

export function diffMarkdown(diff: SurfaceDiff): string {
  const icon = diff.unaccepted_breaking ? "🔴" : diff.counts.breaking ? "🟠" : "🟢";
  const lines = [
    `### ${icon} CLI surface: ${diff.changes.length ? diff.verdict : "no change"} (${diff.old.binary} ${diff.old.version} → ${diff.new.version})`,
    "",
    ...(productsWarning(diff) ? [`> ⚠ ${productsWarning(diff)}`, ""] : []),
    `${summary(diff)}. ${versionLine(diff)}.`,
    "",
  ];
  if (diff.changes.length) {
    lines.push("| | Change | API side | Id |", "|---|---|---|---|");
    for (const c of diff.changes)
      lines.push(
        `| ${c.accepted ? `accepted ${LABEL[c.severity]}` : `**${LABEL[c.severity]}**`} | ${cell(c.reason)}${c.accepted ? ` _(accepted: ${cell(c.accepted)})_` : ""} | ${cell(apiText(c))} | \`${cell(c.id)}\` |`,
      );
  } else {
    lines.push("No change to the commands, flags, outputs, Skills or rules.");
  }
  if (diff.unused_ignores.length)
    lines.push(
      "",
      ...diff.unused_ignores.map(
        (u) => `- The ignore file accepts \`${cell(u.change)}\`, which is not among the changes.`,
      ),
    );
  return `${lines.join("\n")}\n`;
}

/** The candidate's CHANGELOG.md entry for its version, breaking changes first and marked **BREAKING**. */
export function changelogSection(diff: SurfaceDiff): string {
  const lines = [
    `## ${diff.new.version}`,
    "",
    `Compared with ${diff.old.version}: ${diff.verdict} (${summary(diff)}).`,
    "",
  ];
  if (!diff.changes.length) lines.push("- No change to the commands, flags, outputs, Skills or rules.");
  for (const c of diff.changes) lines.push(`- ${c.severity === "breaking" ? "**BREAKING** " : ""}${c.reason}`);
  return `${lines.join("\n")}\n`;
}
