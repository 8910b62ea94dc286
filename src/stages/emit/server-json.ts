import { MCP_NAME } from "../../core/mcp-name.js";
import { manifestCredentialNames } from "../../surface/surface.js";

/**
 * The MCP registry's entry for a generated package (`server.json`): the npm package and version, its stdio transport,
 * and the environment it reads — credential variables secret and required, the base URL optional. The registry
 * publishes an npm package's entry only when the package's package.json names the same `mcpName`, and only under a
 * namespace the publisher proves it owns (`io.github.<login>/…` by GitHub login, `com.example/…` by DNS or HTTP): the
 * name comes from the config (`product.mcpName`), never made up. docs/publishing.md says how to publish it.
 */
export const SERVER_SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

/** A version range or tag where the registry wants one version (`^1.2.3`, `1.x`, `latest`). */
const VERSION_RANGE = /[\^~<>=*\s|]|(^|\.)[xX](\.|$)|^latest$/;
const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;

export interface ServerJson {
  $schema: string;
  name: string;
  description: string;
  version: string;
  packages: Array<{
    registryType: "npm";
    registryBaseUrl?: string;
    identifier: string;
    version: string;
    transport: { type: "stdio" };
    environmentVariables: Array<{ name: string; description: string; isRequired: boolean; isSecret: boolean }>;
  }>;
}

export function serverJson(input: {
  name: string;
  description: string;
  pkg: string;
  version: string;
  registry?: string;
  manifest: { auth?: unknown; baseUrl?: { env?: string } };
}): ServerJson {
  const credentials = manifestCredentialNames(input.manifest.auth);
  const baseUrl = input.manifest.baseUrl?.env;
  const description =
    input.description.length > 100 ? `${input.description.slice(0, 99).replace(/\s+\S*$/, "")}…` : input.description;
  return {
    $schema: SERVER_SCHEMA,
    name: input.name,
    description: description || input.pkg,
    version: input.version,
    packages: [
      {
        registryType: "npm",
        ...(input.registry ? { registryBaseUrl: input.registry.replace(/\/+$/, "") } : {}),
        identifier: input.pkg,
        version: input.version,
        transport: { type: "stdio" },
        environmentVariables: [
          ...credentials.map((name) => ({
            name,
            description: `Credential for the API (${name}); never passed as an argument`,
            isRequired: true,
            isSecret: true,
          })),
          ...(baseUrl
            ? [
                {
                  name: baseUrl,
                  description: "The API's base URL, when not the default",
                  isRequired: false,
                  isSecret: false,
                },
              ]
            : []),
        ],
      },
    ],
  };
}

/**
 * What the registry's publisher would refuse in an entry, as `field: problem` lines: the rules of its schema
 * (2025-12-11) that an npm package's entry meets or breaks — name, description and version bounds, one version and no
 * range, an npm package over stdio, its variables named and typed — and the package's own `mcpName`. Empty when it
 * would be taken.
 */
export function serverJsonProblems(doc: ServerJson, packageJson?: { name?: unknown; mcpName?: unknown }): string[] {
  const problems: string[] = [];
  if (doc.$schema !== SERVER_SCHEMA) problems.push(`$schema: ${doc.$schema} is not the current ${SERVER_SCHEMA}`);
  if (!MCP_NAME.test(doc.name) || doc.name.length < 3 || doc.name.length > 200)
    problems.push(`name: "${doc.name}" is not namespace/name with a reverse-DNS namespace of two labels or more`);
  if (!doc.description || doc.description.length > 100)
    problems.push(`description: ${doc.description.length} characters, not 1 to 100`);
  if (!doc.version || doc.version.length > 255 || VERSION_RANGE.test(doc.version))
    problems.push(`version: "${doc.version}" is not one specific version`);
  if (!doc.packages.length) problems.push("packages: none; an npm package's entry lists it");
  doc.packages.forEach((p, i) => {
    const at = `packages[${i}]`;
    if (p.registryType !== "npm") problems.push(`${at}.registryType: "${p.registryType}", not "npm"`);
    if (!p.identifier) problems.push(`${at}.identifier: empty`);
    if (!p.version || VERSION_RANGE.test(p.version)) problems.push(`${at}.version: "${p.version}" is not one version`);
    if (p.version !== doc.version) problems.push(`${at}.version: ${p.version}, not the entry's ${doc.version}`);
    if (p.transport?.type !== "stdio") problems.push(`${at}.transport.type: not "stdio"`);
    if (p.registryBaseUrl !== undefined && !/^https?:\/\/\S+$/.test(p.registryBaseUrl))
      problems.push(`${at}.registryBaseUrl: "${p.registryBaseUrl}" is not a URL`);
    p.environmentVariables.forEach((v, j) => {
      if (!ENV_NAME.test(v.name)) problems.push(`${at}.environmentVariables[${j}].name: "${v.name}" is not a variable`);
      if (typeof v.isRequired !== "boolean" || typeof v.isSecret !== "boolean")
        problems.push(`${at}.environmentVariables[${j}]: isRequired and isSecret are booleans`);
    });
    if (packageJson && p.identifier !== packageJson.name)
      problems.push(`${at}.identifier: ${p.identifier}, not the package's name ${String(packageJson.name)}`);
  });
  if (packageJson && packageJson.mcpName !== doc.name)
    problems.push(`name: package.json's mcpName is ${JSON.stringify(packageJson.mcpName)}, not ${doc.name}`);
  return problems;
}
