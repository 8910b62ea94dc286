/**
 * The semver verdict of a set of changes, and the version a candidate should carry after its baseline's. A 0.x
 * version follows npm's caret ranges (docs/diff.md): there a breaking change bumps the minor and anything else the patch.
 */
import type { SurfaceChange } from "./changes.js";

export type Verdict = "major" | "minor" | "patch";

export function verdictOf(changes: SurfaceChange[]): Verdict {
  if (changes.some((c) => c.severity === "breaking")) return "major";
  if (changes.some((c) => c.severity === "non-breaking")) return "minor";
  return "patch";
}

const parse = (version: string) =>
  /^(\d+)\.(\d+)\.(\d+)/.exec(version)?.slice(1).map(Number) as [number, number, number] | undefined;

/** The lowest version after `baseline` that the verdict allows (a patch verdict with no change at all keeps it). */
export function expectedVersion(baseline: string, verdict: Verdict, changed: boolean): string | undefined {
  const v = parse(baseline);
  if (!v) return undefined;
  const [major, minor, patch] = v;
  if (!changed) return baseline;
  if (major === 0) return verdict === "major" ? `0.${minor + 1}.0` : `0.${minor}.${patch + 1}`;
  return verdict === "major"
    ? `${major + 1}.0.0`
    : verdict === "minor"
      ? `${major}.${minor + 1}.0`
      : `${major}.${minor}.${patch + 1}`;
}

const compare = (a: [number, number, number], b: [number, number, number]) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** Whether `version` is at least the expected one: a bigger bump than needed is allowed, a smaller one is not. */
export function followsVerdict(version: string, expected: string): boolean {
  const [a, b] = [parse(version), parse(expected)];
  return !a || !b ? true : compare(a, b) >= 0;
}

/**
 * The bump the verdict asks for, in words that agree with the expected version: on 0.x a breaking change bumps the
 * minor ("bump the minor version to at least 0.2.0 (0.x: …)"), never "the major".
 */
export function bumpWords(baseline: string, verdict: Verdict, expected: string | undefined): string {
  const zero = parse(baseline)?.[0] === 0;
  const part = zero ? (verdict === "major" ? "minor" : "patch") : verdict;
  const to = expected ? ` to at least ${expected}` : "";
  const why = zero
    ? verdict === "major"
      ? " (on 0.x a breaking change bumps the minor, as npm's caret ranges read it)"
      : " (on 0.x anything compatible bumps the patch)"
    : "";
  return `bump the ${part} version${to}${why}`;
}
