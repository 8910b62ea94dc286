import type { CredentialNames, InterConfig } from "../../config/types.js";
import type { CredentialVariables } from "../../runtime/manifest.js";
import type { SecurityScheme } from "../openapi/model.js";
import { oauthUrls } from "./wire.js";
import { schemeKindOf } from "../../runtime/schemes/index.js";

/**
 * The environment variables each security scheme a CLI sends reads (docs/generated-cli.md, "Credentials"): one per
 * role, named from the binary and the scheme, renamed by `api.credentials` (and `api.credentialEnv` for a CLI of one
 * scheme). Names only: values live in the user's environment.
 */

type Role = keyof CredentialVariables;

/**
 * The roles a scheme reads, as its kind says (runtime/schemes/): what it sends, and for OAuth 2 what the CLI can obtain
 * an access token with. HTTP Basic reads a user and a password, or (when the config names one variable for it)
 * `value`, the two joined by a colon.
 */
function rolesOf(scheme: SecurityScheme): Role[] {
  const urls = scheme.type === "oauth2" ? oauthUrls(scheme) : {};
  return schemeKindOf(scheme)?.roles({ ...scheme, ...urls }) ?? ["value"];
}

const ROLE_SUFFIX: Record<Role, string> = {
  value: "",
  username: "USERNAME",
  password: "PASSWORD",
  accessToken: "ACCESS_TOKEN",
  clientId: "CLIENT_ID",
  clientSecret: "CLIENT_SECRET",
  refreshToken: "REFRESH_TOKEN",
  accessKeyId: "ACCESS_KEY_ID",
  secretAccessKey: "SECRET_ACCESS_KEY",
  sessionToken: "SESSION_TOKEN",
};

/** AWS Signature Version 4 reads the variables every AWS tool reads, whatever the CLI is called. */
const AWS_ROLES: Partial<Record<Role, string>> = {
  accessKeyId: "AWS_ACCESS_KEY_ID",
  secretAccessKey: "AWS_SECRET_ACCESS_KEY",
  sessionToken: "AWS_SESSION_TOKEN",
};

/** `bearerAuth` → BEARER_AUTH, `api_key` → API_KEY, `OAuth2` → OAUTH2, `x-api-key` → X_API_KEY. */
function upperSnake(name: string): string {
  return name
    .replace(/OAuth/g, "Oauth")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toUpperCase();
}

/** The default name of a role's variable. `alone`: the CLI sends one scheme, so its name needs no scheme part. */
function defaultName(prefix: string, schemeName: string, role: Role, alone: boolean): string {
  if (AWS_ROLES[role]) return AWS_ROLES[role];
  if (alone) return role === "value" ? `${prefix}_API_KEY` : `${prefix}_${ROLE_SUFFIX[role]}`;
  let part = upperSnake(schemeName);
  // A scheme named after the product (`trello_token`) does not repeat it.
  if (part === prefix) part = "";
  else if (part.startsWith(`${prefix}_`)) part = part.slice(prefix.length + 1);
  return [prefix, part, ROLE_SUFFIX[role]].filter(Boolean).join("_");
}

/** The variables of every scheme a CLI sends, and what the build should say about the config's names. */
export function credentialVariables(
  config: Pick<InterConfig, "product" | "api">,
  schemes: Record<string, SecurityScheme>,
): { variables: Record<string, CredentialVariables>; warnings: string[] } {
  const warnings: string[] = [];
  const prefix = upperSnake(config.product.binary);
  const names = Object.keys(schemes).sort();
  const alone = names.length === 1;
  const configured = config.api?.credentials ?? {};
  for (const name of Object.keys(configured)) {
    if (!(name in schemes))
      warnings.push(
        `api.credentials names "${name}", which no command sends${names.length ? ` (schemes sent: ${names.join(", ")})` : ""}; it is not used`,
      );
  }
  if (config.api?.credentialEnv && alone && schemes[names[0]!]!.signature?.kind === "aws-sigv4")
    warnings.push(
      `api.credentialEnv names one variable, and the scheme ${names[0]} signs each request with AWS Signature Version 4 from an access key id, a secret access key and an optional session token; name them in api.credentials.${names[0]} ({ accessKeyId, secretAccessKey, sessionToken }) instead`,
    );
  if (config.api?.credentialEnv && names.length > 1)
    warnings.push(
      `api.credentialEnv applies to a CLI of one security scheme, and this one sends ${names.length} (${names.join(", ")}); name their variables in api.credentials instead`,
    );
  const variables: Record<string, CredentialVariables> = {};
  const taken = new Map<string, string>();
  for (const name of names) {
    const scheme = schemes[name]!;
    let roles = rolesOf(scheme);
    const own = configured[name];
    const basic = roles.includes("username");
    // HTTP Basic from one variable holding `user:password`: what api.credentialEnv (or a name, or `value`) asks for.
    const pair =
      basic &&
      (typeof own === "string" ||
        (typeof own === "object" && !!own.value) ||
        (alone && !own && !!config.api?.credentialEnv));
    if (pair) roles = ["value"];
    const named: CredentialNames =
      typeof own === "string" ? { [roles.includes("value") ? "value" : roles[0]!]: own } : (own ?? {});
    for (const role of Object.keys(named) as Role[]) {
      if (!roles.includes(role))
        warnings.push(
          `api.credentials.${name}.${role}: the scheme ${name} (${scheme.type}${scheme.scheme ? ` ${scheme.scheme}` : ""}) reads ${roles.join(", ")}, not ${role}; it is not used`,
        );
    }
    const vars: CredentialVariables = {};
    for (const role of roles) {
      const primary = role === "value" || role === "accessToken";
      let env =
        named[role] ??
        (alone && primary && config.api?.credentialEnv
          ? config.api.credentialEnv
          : defaultName(prefix, name, role, alone));
      if (taken.has(env) && named[role] === undefined) {
        const base = `${prefix}_${upperSnake(name)}${role === "value" ? "" : `_${ROLE_SUFFIX[role]}`}`;
        env = base;
        for (let n = 2; taken.has(env); n++) env = `${base}_${n}`;
      }
      if (taken.has(env))
        warnings.push(
          `${env} is named for both ${taken.get(env)} and ${name}.${role}; give them different names in api.credentials`,
        );
      taken.set(env, `${name}.${role}`);
      vars[role] = env;
    }
    variables[name] = vars;
  }
  return { variables, warnings };
}
