import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { planCredentialEnvs } from "../../stages/plan/types.js";
import { manifestCredentialNames } from "../../surface/surface.js";
import { openCandidate } from "../../stages/candidate/open-candidate.js";

/**
 * The credential variables a trigger run keeps from the agent and redacts: those the candidate's manifest names (when
 * the Skills come from its cli.tgz) and those of the evaluation plan in the folder, if there is one. A trigger run
 * calls no API, so the agent never needs them; an agent that echoed one would otherwise write it into its transcript.
 * An unreadable manifest or plan adds nothing: the Skills are what a trigger run is about.
 */
export async function triggerCredentials(folder: string, tgz: string | undefined): Promise<string[]> {
  const names = new Set<string>();
  if (tgz) {
    try {
      const { manifest } = await openCandidate(tgz, { keep: () => false });
      for (const name of manifestCredentialNames(manifest.auth)) names.add(name);
    } catch {
      // not a package inter built: no manifest to read credentials from
    }
  }
  const plan = join(folder, "eval-plan.json");
  if (existsSync(plan)) {
    try {
      for (const name of planCredentialEnvs(JSON.parse(readFileSync(plan, "utf8")))) names.add(name);
    } catch {
      // a plan that does not parse is `inter eval run`'s to report
    }
  }
  return [...names].sort();
}
