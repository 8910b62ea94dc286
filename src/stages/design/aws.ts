import type { InterConfig } from "../../config/types.js";
import type { AwsSigning } from "../../runtime/manifest.js";
import { awsHost } from "../../runtime/sigv4.js";
import type { OperationModel, SecurityScheme } from "../openapi/model.js";

/**
 * Where an AWS Signature Version 4 scheme signs for (docs/generated-cli.md, "Credentials"), decided at build time:
 * - the service: `api.aws.service` in the config, else the document's signing name (`info.x-aws-signingName`; S3's
 *   `awsS3` is `s3`), else the service label of an AWS host (`ec2.{region}.amazonaws.com` → ec2), else `execute-api`
 *   (API Gateway's own extension on a host of the API's own);
 * - the region: `api.aws.region`, else the default of the server's `{region}` variable, else the region an AWS host
 *   names (a global endpoint is us-east-1); else none, and the CLI needs AWS_REGION at run time;
 * - the endpoint: the document's server URL with `{region}` kept, when the CLI's base URL comes from it (so
 *   AWS_REGION picks the host as well as the signature).
 */
export function awsSigning(
  scheme: SecurityScheme,
  model: Pick<OperationModel, "servers">,
  config: Pick<InterConfig, "api">,
): { aws: AwsSigning; warning?: string } {
  const server = config.api?.baseUrl ? undefined : model.servers[0];
  const url = config.api?.baseUrl ?? server?.url;
  let host: ReturnType<typeof awsHost>;
  try {
    host = url ? awsHost(new URL(url).host) : undefined;
  } catch {
    host = undefined;
  }
  const service = config.api?.aws?.service ?? scheme.signature?.service ?? host?.service ?? "execute-api";
  const templated = server?.template?.includes("{region}") ? server.variables?.region?.default : undefined;
  const region = config.api?.aws?.region ?? templated ?? host?.region;
  const endpoint = server ? regionalTemplate(server) : undefined;
  return {
    aws: { service, ...(region ? { region } : {}), ...(endpoint ? { endpoint } : {}) },
    ...(region
      ? {}
      : {
          warning: `signs with AWS Signature Version 4 but neither the config (api.aws.region) nor the API's address names a region: the CLI needs AWS_REGION at run time`,
        }),
  };
}

type Server = OperationModel["servers"][number];

/** A server URL with `{region}` kept and its other variables filled in; undefined when it has no `{region}`. */
function regionalTemplate(server: Server): string | undefined {
  if (!server.template?.includes("{region}")) return undefined;
  const variables = server.variables ?? {};
  const url = server.template.replace(/\{([^}]+)\}/g, (whole, name: string) =>
    name === "region" ? whole : (variables[name]?.default ?? whole),
  );
  return /\{(?!region\})/.test(url) ? undefined : url;
}

/**
 * The CLI's default base URL: the config's, else the document's first server — in the region `api.aws.region` names
 * when that server is regional (`http://ec2.{region}.amazonaws.com`).
 */
export function defaultBaseUrl(
  model: Pick<OperationModel, "servers">,
  config: Pick<InterConfig, "api">,
): string | null {
  if (config.api?.baseUrl) return config.api.baseUrl;
  const server = model.servers[0];
  if (!server) return null;
  const region = config.api?.aws?.region;
  const template = region ? regionalTemplate(server) : undefined;
  return template && region ? template.replace("{region}", region) : server.url;
}
