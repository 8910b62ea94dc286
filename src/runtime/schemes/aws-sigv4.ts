import type { SchemeKind } from "./kind.js";
import { read } from "./kind.js";

/** Whether each request is signed with AWS Signature Version 4, whatever the scheme's type. */
export const signsAws = (scheme: { signature?: { kind: string } }) => scheme.signature?.kind === "aws-sigv4";

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * AWS Signature Version 4: whatever the document calls the scheme, the CLI signs each request with the keys every AWS
 * tool reads (sigv4.ts), for the service and region it names; nothing is placed as is.
 */
export const awsSigV4: SchemeKind = {
  is: signsAws,
  // The scheme the document declares is how the signature travels: it can be sent when that can.
  rank: () => 0,
  roles: () => ["accessKeyId", "secretAccessKey", "sessionToken"],
  source(scheme) {
    const accessKeyId = read(scheme.env.accessKeyId);
    const secretAccessKey = read(scheme.env.secretAccessKey);
    const sessionToken = read(scheme.env.sessionToken);
    if (!accessKeyId || !secretAccessKey) return undefined;
    return { kind: "aws", accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
  },
  needs: ({ env }) =>
    `${env.accessKeyId} and ${env.secretAccessKey}${env.sessionToken ? ` (and ${env.sessionToken} for temporary credentials)` : ""}`,
  how(name, { env, aws }) {
    return `${name} signs every request with AWS Signature Version 4 (computed by the CLI, never sent as is): the access key id ${env.accessKeyId} and the secret access key ${env.secretAccessKey}${env.sessionToken ? `, with ${env.sessionToken} for temporary credentials` : ""}, for the service ${aws?.service ?? "named by the API's host"} and the region an AWS host names, else AWS_REGION (else AWS_DEFAULT_REGION)${aws?.region ? `, else ${aws.region}` : ""}${aws?.endpoint ? `; AWS_REGION also picks the host (${aws.endpoint})` : ""}; the request carries "Authorization: AWS4-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…" and x-amz-date`;
  },
  place: () => undefined,
  // Signed, not placed: the scope and signed headers show, the key id and the signature are redacted. A signing name
  // may be mixed case (AWS Mobile Hub's `AWSMobileHubService`).
  carried: (request, _scheme, redacted) =>
    new RegExp(
      `^AWS4-HMAC-SHA256 Credential=${escape(redacted)}/\\d{8}/[a-z0-9-]+/[A-Za-z0-9.-]+/aws4_request, SignedHeaders=([^\\s,;]+;)*host(;[^\\s,;]+)*, Signature=${escape(redacted)}$`,
    ).test(request.header("authorization") ?? "") && !!request.header("x-amz-date"),
};
