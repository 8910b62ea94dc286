/** A surface diff as `inter diff` prints it: the changes, their counts, the semver verdict and the version it asks for. */
import type { SurfaceChange } from "./changes.js";
import { surfaceChanges } from "./changes.js";
import { applyIgnore, type IgnoreEntry } from "./ignore.js";
import type { Surface } from "./surface.js";
import { expectedVersion, followsVerdict, type Verdict, verdictOf } from "./verdict.js";

export interface SurfaceDiff {
  old: { candidate: string; binary: string; version: string };
  new: { candidate: string; binary: string; version: string };
  verdict: Verdict;
  /** The lowest version the new candidate may carry after the old one's; undefined when a version is not semver. */
  expected_version?: string;
  /** Whether the new candidate's version follows the verdict. */
  version_follows: boolean;
  counts: { breaking: number; non_breaking: number; informational: number; accepted: number };
  /** Breaking changes not accepted by the ignore file: what `--fail-on breaking` counts. */
  unaccepted_breaking: number;
  changes: Array<SurfaceChange & { accepted?: string }>;
  unused_ignores: IgnoreEntry[];
  /**
   * Present when the two candidates are different products (their binary or package name differ): the changes then
   * compare two CLIs, not two versions of one.
   */
  different_products?: { binary?: { old: string; new: string }; package?: { old: string; new: string } };
}

export function diffSurfaces(before: Surface, after: Surface, ignore: IgnoreEntry[] = []): SurfaceDiff {
  const raw = surfaceChanges(before, after);
  const { changes, unused } = applyIgnore(raw, ignore);
  // Accepted changes still count for the verdict: accepting a breaking change does not make it compatible.
  const verdict = verdictOf(raw);
  const expected = expectedVersion(before.product.version, verdict, raw.length > 0);
  const binary =
    before.product.binary !== after.product.binary
      ? { old: before.product.binary, new: after.product.binary }
      : undefined;
  const pkg =
    before.product.package && after.product.package && before.product.package !== after.product.package
      ? { old: before.product.package, new: after.product.package }
      : undefined;
  return {
    old: { candidate: before.label, binary: before.product.binary, version: before.product.version },
    new: { candidate: after.label, binary: after.product.binary, version: after.product.version },
    verdict,
    ...(expected ? { expected_version: expected } : {}),
    version_follows: expected ? followsVerdict(after.product.version, expected) : true,
    counts: {
      breaking: raw.filter((c) => c.severity === "breaking").length,
      non_breaking: raw.filter((c) => c.severity === "non-breaking").length,
      informational: raw.filter((c) => c.severity === "informational").length,
      accepted: changes.filter((c) => c.accepted).length,
    },
    unaccepted_breaking: changes.filter((c) => c.severity === "breaking" && !c.accepted).length,
    changes,
    unused_ignores: unused,
    ...(binary || pkg
      ? { different_products: { ...(binary ? { binary } : {}), ...(pkg ? { package: pkg } : {}) } }
      : {}),
  };
}
