import { pushTo } from "../../../core/group.js";
import type { Operation, OperationModel } from "../../openapi/model.js";
import { Claims, type Named, type NamingReport } from "./claims.js";
import { basePath, type Draft } from "./draft.js";
import { draftsOf } from "./drafts.js";
import { nameGroup } from "./groups.js";
import { collapseLoneSubs, shorten, shortenGroups, shortenSubs } from "./shorten.js";
import { sourceOf } from "./source.js";

/**
 * Command names from what each operation says it does (docs/generated-cli.md, "Names"): noun first, the action the
 * operation states (its summary, operationId or description), CRUD words only for resource-shaped operations.
 * Every choice is recorded in a NameSource, so a reviewer sees which words came from where.
 */

export { successResponse } from "./crud-word.js";

/**
 * Assigns every operation a unique command path. Explicit `x-cli-name`s first; names several operations want are told
 * apart by the words in which their own descriptions differ (never HTTP method words); a numeric suffix only when
 * nothing differs — always reported.
 */
export function nameOperations(
  operations: Operation[],
  model: Pick<OperationModel, "source">,
  productName: string,
  reserved: Set<string>,
  report: NamingReport,
): Map<Operation, Named> {
  const drafts = draftsOf(operations, model, productName, reserved, report);
  const claims = new Claims();
  const byName = new Map<string, Draft[]>();
  for (const d of [...drafts.filter((x) => x.explicit), ...drafts.filter((x) => !x.explicit)])
    pushTo(byName, basePath(d).join(" "), d);
  for (const [name, group] of byName) nameGroup(name, group, claims, byName, report);
  const collapsed = collapseLoneSubs(claims);
  // Sub-resources shorten first, alike for all their commands; then actions; a group only where its own word is long
  // and a name still runs over.
  shortenSubs(claims.chosen, claims.taken);
  for (const d of drafts) claims.chosen.get(d)!.path = shorten(claims.chosen.get(d)!.path, claims.taken, d);
  shortenGroups(claims.chosen, claims.taken);
  const out = new Map<Operation, Named>();
  for (const d of drafts) {
    const entry = claims.chosen.get(d)!;
    out.set(d.op, { path: entry.path, source: sourceOf(d, entry, collapsed.has(d)) });
  }
  return out;
}
