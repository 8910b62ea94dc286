/**
 * The surface of a candidate for `inter diff`, `inter publish` and the build's baseline comparison: a cli.tgz or an
 * unpacked package folder, opened by the one candidate reader (stages/candidate/open-candidate.ts), which reads only
 * the files `surfaceOf` needs. A project folder is resolved to the cli.tgz its config builds before this
 * (src/cli/candidate-lookup.ts: the one lookup).
 */
import { type Candidate, openCandidate } from "../stages/candidate/open-candidate.js";
import { type Surface, surfaceFile, surfaceOf } from "./surface.js";

/** The surface of a candidate already opened (with at least the files `surfaceFile` selects). */
export function surfaceOfCandidate(candidate: Candidate): Surface {
  const files = new Map<string, string>();
  for (const [path, entry] of candidate.files) if (surfaceFile(path)) files.set(path, entry.bytes.toString("utf8"));
  return surfaceOf(candidate.label, files);
}

/** Reads the surface of the candidate at `path`; `label` is how messages name it. */
export async function readSurface(path: string, label = path): Promise<Surface> {
  return surfaceOfCandidate(await openCandidate(path, { label, keep: surfaceFile }));
}
