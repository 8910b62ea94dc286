import { CliError } from "./errors.js";
import type { Chosen } from "./credentials.js";
import type { AwsSigning, Manifest } from "./manifest.js";

/**
 * AWS Signature Version 4 (docs/generated-cli.md, "Credentials"): each request is signed with the `aws4` package,
 * bundled into the runtime and loaded only when a request is signed, so a call that signs nothing never loads it.
 * The signature covers the method, the URL's path and query, the headers and the payload's sha256; a retry or the next
 * page is signed again (a signature holds its time).
 */

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface SignableRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** A string or Buffer is hashed as it is; any other body (a stream) is signed by its `payloadSha256`. */
  body?: unknown;
}

/**
 * What the signature itself puts in a request (headers, or the query of a presigned URL): AWS's descriptions declare
 * them as parameters of every operation, and they are never flags (stages/design/wire.ts; inspection's A3).
 */
export const SIGV4_PARAMETER =
  /^x-amz-(date|algorithm|credential|security-token|signature|signedheaders|content-sha256|expires)$/i;

/** The variables that choose the region at run time, first set wins. */
export const REGION_VARIABLES = ["AWS_REGION", "AWS_DEFAULT_REGION"] as const;

const REGION = /^[a-z]{2}(-[a-z]+)+-\d+$/;

/**
 * The service and region an AWS host names: `ec2.eu-west-1.amazonaws.com` → ec2, eu-west-1;
 * `runtime.sagemaker.us-east-1.amazonaws.com` → sagemaker; a global endpoint (`sts.amazonaws.com`) is us-east-1
 * (cn-north-1 in China); undefined for a host that is not AWS's.
 */
export function awsHost(host: string): { service?: string; region?: string } | undefined {
  const match = /^(.+)\.amazonaws\.com(\.cn)?$/.exec(host.toLowerCase().replace(/:\d+$/, ""));
  if (!match) return undefined;
  const labels = match[1]!.split(".");
  const at = labels.findIndex((l) => REGION.test(l));
  if (at >= 0) {
    const before = labels.slice(0, at);
    return { ...(before.length ? { service: before.at(-1) } : {}), region: labels[at] };
  }
  // A legacy dashed regional host (`s3-us-west-2`) names both.
  const dashed = /^([a-z0-9]+)-([a-z]{2}(-[a-z]+)+-\d+)$/.exec(labels.at(-1)!);
  if (dashed) return { service: dashed[1], region: dashed[2] };
  return { service: labels.at(-1), region: match[2] ? "cn-north-1" : "us-east-1" };
}

/** The region chosen by the environment, if any: AWS_REGION, else AWS_DEFAULT_REGION. */
function regionFromEnvironment(): { region: string; variable: string } | undefined {
  for (const variable of REGION_VARIABLES) {
    const region = process.env[variable]?.trim();
    if (region) return { region, variable };
  }
  return undefined;
}

/**
 * The base URL the CLI calls by default when the document's server is regional (`http://ec2.{region}.amazonaws.com`):
 * the region the environment chooses picks the host as well as the signature. Undefined when nothing changes it.
 */
export function regionalBaseUrl(manifest: Pick<Manifest, "auth">): string | undefined {
  const chosen = regionFromEnvironment();
  if (!chosen || !REGION.test(chosen.region)) return undefined;
  const endpoint = Object.values(manifest.auth.schemes).find((s) => s.aws?.endpoint)?.aws?.endpoint;
  return endpoint?.replace("{region}", chosen.region);
}

/**
 * The region a request to `url` is signed for, and what chose it: an AWS host's own region first (an endpoint takes
 * signatures for its region only; a global one, `sts.amazonaws.com`, for us-east-1), else AWS_REGION, else
 * AWS_DEFAULT_REGION, else the CLI's default; undefined when nothing names one.
 */
export function signingRegion(
  aws: Pick<AwsSigning, "region">,
  url: string | undefined,
): { region: string; from: string } | undefined {
  let host: ReturnType<typeof awsHost>;
  try {
    host = url ? awsHost(new URL(url).host) : undefined;
  } catch {
    host = undefined;
  }
  if (host?.region) return { region: host.region, from: "the API's host" };
  const chosen = regionFromEnvironment();
  if (chosen) return { region: chosen.region, from: chosen.variable };
  return aws.region ? { region: aws.region, from: "the CLI's default (the API's server)" } : undefined;
}

/** The region a request is signed for; CREDENTIAL_MISSING when nothing names one. */
function regionFor(aws: AwsSigning, url: URL, variables: string[]): string {
  const region = signingRegion(aws, url.href)?.region;
  if (region) return region;
  throw new CliError(
    "CREDENTIAL_MISSING",
    `AWS Signature Version 4 needs a region to sign for, and none is known: ${REGION_VARIABLES.join(" and ")} are not set, and neither the API's address nor the CLI names one.`,
    `Export AWS_REGION (e.g. AWS_REGION=us-east-1) beside ${variables.join(", ")}.`,
    { unset: [...REGION_VARIABLES] },
  );
}

interface Aws4 {
  sign(
    request: {
      host: string;
      path: string;
      method: string;
      headers: Record<string, string | number>;
      body?: string | Buffer;
      service: string;
      region: string;
    },
    credentials: AwsCredentials,
  ): { headers: Record<string, string | number> };
}

/**
 * The headers of a request signed with AWS Signature Version 4: `authorization`, `x-amz-date`, `host`,
 * `x-amz-security-token` with a session token, and `x-amz-content-sha256` where the payload's hash is given (a body
 * sent as a stream: `payloadSha256`, hex) or the service is S3. A string or Buffer body is hashed as it is. Header
 * names come back in lower case; the request's other headers are kept.
 */
export async function signRequest(
  request: SignableRequest,
  credentials: AwsCredentials,
  scope: { region: string; service: string },
  payloadSha256?: string,
): Promise<Record<string, string>> {
  const aws4 = (await import("aws4")) as unknown as Aws4 & { default?: Aws4 };
  const url = new URL(request.url);
  const headers: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(request.headers)) headers[k.toLowerCase()] = v;
  headers.host = url.host;
  for (const k of ["authorization", "x-amz-date", "x-amz-security-token", "x-amz-content-sha256"]) delete headers[k];
  const bytes = typeof request.body === "string" || Buffer.isBuffer(request.body) ? request.body : undefined;
  if (request.body !== undefined && bytes === undefined && !payloadSha256)
    throw new Error("a streamed body is signed by its sha256: pass payloadSha256 to signRequest");
  if (payloadSha256) headers["x-amz-content-sha256"] = payloadSha256.toLowerCase();
  if (bytes !== undefined) headers["content-length"] = Buffer.byteLength(bytes);
  const signed = (aws4.default ?? aws4).sign(
    {
      host: url.hostname,
      path: `${url.pathname}${url.search}`,
      method: request.method.toUpperCase(),
      headers,
      ...(bytes !== undefined && !payloadSha256 ? { body: bytes } : {}),
      service: scope.service,
      region: scope.region,
    },
    {
      accessKeyId: credentials.accessKeyId,
      secretAccessKey: credentials.secretAccessKey,
      ...(credentials.sessionToken ? { sessionToken: credentials.sessionToken } : {}),
    },
  );
  return Object.fromEntries(Object.entries(signed.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
}

/**
 * What callApi runs on every request right before it is sent (and before a dry run prints it): signs it for each AWS
 * Signature Version 4 scheme of the chosen alternative, or returns it as it is. Call it again for a retry or a page.
 */
export function requestSigner(
  manifest: Pick<Manifest, "auth">,
  chosen: Chosen | undefined,
): <R extends SignableRequest>(request: R, payloadSha256?: string) => Promise<R> {
  const signing = Object.entries(chosen?.sources ?? {}).flatMap(([name, source]) => {
    const scheme = manifest.auth.schemes[name];
    return source.kind === "aws" && scheme?.aws ? [{ source, aws: scheme.aws, scheme }] : [];
  });
  if (!signing.length) return async (request) => request;
  return async (request, payloadSha256) => {
    let out = request;
    for (const { source, aws, scheme } of signing) {
      const url = new URL(out.url);
      const region = regionFor(
        aws,
        url,
        Object.values(scheme.env).filter((v): v is string => !!v),
      );
      out = { ...out, headers: await signRequest(out, source, { region, service: aws.service }, payloadSha256) };
    }
    return out;
  };
}
