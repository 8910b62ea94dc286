/**
 * The credential variables a new project's CLI will read, from its OpenAPI document: the design's own names for each
 * security scheme its commands send (stages/design/credentials.ts), so the config `inter init` writes, the build and
 * `inter status` name the same variables. A document that cannot be read yet names none: the build says why.
 */
import type { CredentialNames } from "../../config/types.js";

export type SchemeVariables = Record<string, string | CredentialNames>;

/** What `inter init` takes from the document: the product's name (its title) and the credential variables. */
export interface DocumentFacts {
  /** `info.title` without a trailing "API" or version (`Xero Accounting API` → Xero Accounting); undefined if none. */
  title?: string;
  credentials?: SchemeVariables;
}

/**
 * Reads the document once: its title, and the variables its schemes read for the product `productFor` names from
 * that title. A document that cannot be read gives neither: the build says why.
 */
export async function documentFacts(
  file: string,
  root: string,
  productFor: (title: string | undefined) => { name: string; binary: string },
): Promise<DocumentFacts> {
  try {
    const [{ readOperationModel }, { designCommands }] = await Promise.all([
      import("../../stages/openapi/normalize.js"),
      import("../../stages/design/commands.js"),
    ]);
    const { model } = await readOperationModel(file, root);
    const title = productTitle(model.source.title);
    const { plan } = designCommands(model, { product: productFor(title) }, []);
    const credentials: SchemeVariables = {};
    for (const [scheme, planned] of Object.entries(plan.auth.schemes)) {
      const roles = Object.entries(planned.env).filter((e): e is [string, string] => typeof e[1] === "string");
      credentials[scheme] =
        roles.length === 1 && roles[0]![0] === "value" ? roles[0]![1] : (Object.fromEntries(roles) as CredentialNames);
    }
    return { ...(title ? { title } : {}), credentials };
  } catch {
    return {};
  }
}

/** A title as a product's name: without a trailing "API", "REST API", "Service" or version (`Trello API v1` → Trello). */
function productTitle(title: string): string | undefined {
  const name = title
    .replace(/\s+/g, " ")
    .replace(/(\s+(v?\d+(\.\d+)*|rest|http|web|open|public|api|apis|service|specification|spec)\b\.?)+\s*$/i, "")
    .trim();
  // A title of a sentence (or of nothing but the words above) names no product.
  return name && name.length <= 40 && /[a-z]/i.test(name) ? name : undefined;
}
