import { describe, expect, it } from "vitest";
import { SCHEME_KINDS } from "../../src/runtime/schemes/index.js";

/** How the inspection sees a SigV4 signature in a dry run's request (src/runtime/schemes/aws-sigv4.ts, `carried`). */
describe("a SigV4 signature as the inspection sees it in a dry run", () => {
  const scheme = { type: "apiKey", in: "header", name: "Authorization", signature: { kind: "aws-sigv4" } };
  const seen = (authorization: string | undefined, date: string | undefined = "20261207T074014Z") => ({
    url: "http://127.0.0.1:9/bundles",
    header: (name: string) => ({ authorization, "x-amz-date": date })[name.toLowerCase() as "authorization"],
  });
  const carried = (authorization: string | undefined, date?: string) =>
    SCHEME_KINDS["aws-sigv4"].carried(seen(authorization, date), scheme, "[REDACTED]");
  const signed = (service: string) =>
    `AWS4-HMAC-SHA256 Credential=[REDACTED]/20261207/us-east-1/${service}/aws4_request, SignedHeaders=accept;host;x-amz-date, Signature=[REDACTED]`;

  it("finds it for any signing name, AWS Mobile Hub's mixed-case one too", () => {
    expect(carried(signed("execute-api"))).toBe(true);
    expect(carried(signed("AWSMobileHubService"))).toBe(true);
    // Any header name may be signed (AWS SSO's `x-amz-sso_bearer_token`).
    expect(carried(signed("sso").replace("x-amz-date", "x-amz-date;x-amz-sso_bearer_token"))).toBe(true);
  });

  it("not where a value shows, the host is unsigned, or x-amz-date is missing", () => {
    expect(carried(signed("s3").replace("Signature=[REDACTED]", "Signature=abc123"))).toBe(false);
    expect(carried(signed("s3").replace("accept;host;x-amz-date", "accept;x-amz-date"))).toBe(false);
    expect(carried(signed("s3"), "")).toBe(false);
    expect(carried(undefined)).toBe(false);
  });
});
