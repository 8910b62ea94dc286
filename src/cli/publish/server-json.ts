import { manifestCredentialNames } from "../../surface/surface.js";

/**
 * The MCP registry's entry for the package (`server.json`, schema 2025-09-29): the npm package and version, its stdio
 * transport, and the environment it reads — credential variables secret and required, the base URL optional. The
 * registry checks that the npm package's package.json names the same `mcpName`; docs/publishing.md says how.
 */
const SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json";

/** A reverse-DNS name the registry accepts: the one given, else one made of the package's name. */
export const defaultMcpName = (pkg: string) => `npm/${pkg.replace(/^@/, "").replace(/\//g, "-")}`;

export function serverJson(input: {
  name: string;
  description: string;
  pkg: string;
  version: string;
  registry?: string;
  manifest: { auth?: unknown; baseUrl?: { env?: string } };
}) {
  const credentials = manifestCredentialNames(input.manifest.auth);
  const baseUrl = input.manifest.baseUrl?.env;
  const description =
    input.description.length > 100 ? `${input.description.slice(0, 99).replace(/\s+\S*$/, "")}…` : input.description;
  return {
    $schema: SCHEMA,
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
