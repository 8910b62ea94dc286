import type { Operation, OperationModel } from "../../openapi/model.js";
import { kebab } from "../word-forms.js";
import type { NamingReport } from "./claims.js";
import { draftName } from "./draft-name.js";
import type { Draft } from "./draft.js";
import { cleanResources, rawResource, splitWideTags } from "./resources.js";

/** Each operation's first name: its resource cleaned of product words and built-ins, its action from its texts. */
export function draftsOf(
  operations: Operation[],
  model: Pick<OperationModel, "source">,
  productName: string,
  reserved: Set<string>,
  report: NamingReport,
): Draft[] {
  const resources = operations.map((op) => ({ op, ...rawResource(op), ...(op.cli.name ? { explicit: true } : {}) }));
  const productWords = new Set(
    [...kebab(productName).split("-"), kebab(model.source.title).split("-")[0] ?? ""].filter((w) => w.length > 2),
  );
  splitWideTags(resources);
  cleanResources(resources, productWords);
  for (const r of resources) {
    if (reserved.has(r.resource)) {
      report({
        kind: "renamed-resource",
        operation: r.op.id,
        message: `"${r.resource}" is a built-in command of every generated CLI, so the resource is "api-${r.resource}"`,
      });
      r.resource = `api-${r.resource}`;
    }
  }
  return resources.map((r) => draftName(r.op, r.resource, r.from, r.dropped));
}
