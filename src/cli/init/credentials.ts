/**
 * The credential variables a new project's CLI will read, from its OpenAPI document: the design's own names for each
 * security scheme its commands send (stages/design/credentials.ts), so the config `inter init` writes, the build and
 * `inter status` name the same variables. A document that cannot be read yet names none: the build says why.
 */
import type { CredentialNames } from "../../config/types.js";

export type SchemeVariables = Record<string, string | CredentialNames>;

export async function documentCredentials(
  file: string,
  root: string,
  product: { name: string; binary: string },
): Promise<SchemeVariables | undefined> {
  try {
    const [{ readOperationModel }, { designCommands }] = await Promise.all([
      import("../../stages/openapi/normalize.js"),
      import("../../stages/design/commands.js"),
    ]);
    const { model } = await readOperationModel(file, root);
    const { plan } = designCommands(model, { product }, []);
    const out: SchemeVariables = {};
    for (const [scheme, planned] of Object.entries(plan.auth.schemes)) {
      const roles = Object.entries(planned.env).filter((e): e is [string, string] => typeof e[1] === "string");
      out[scheme] =
        roles.length === 1 && roles[0]![0] === "value" ? roles[0]![1] : (Object.fromEntries(roles) as CredentialNames);
    }
    return out;
  } catch {
    return undefined;
  }
}
