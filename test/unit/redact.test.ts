import { describe, expect, it } from "vitest";
import { redactor } from "../../src/core/redact.js";

// One redaction policy (#42): the model client, the remote cache and evaluation records cut credentials alike.
describe("redactor", () => {
  it("cuts a secret in every form it leaks in: as is, base64, unpadded, base64url, URL-encoded", () => {
    const secret = "s3cr+t/val=ue?";
    const redact = redactor([secret]);
    const forms = [
      secret,
      Buffer.from(secret).toString("base64"),
      Buffer.from(secret).toString("base64url"),
      encodeURIComponent(secret),
    ];
    for (const form of forms) expect(redact(`before ${form} after`)).toBe("before [REDACTED] after");
  });

  it("a short secret (a local placeholder key, a user name) is cut only as a whole word", () => {
    const redact = redactor(["ok", "ci", undefined, ""]);
    expect(redact("token ok; user ci at ci-host, broken")).toBe("token [REDACTED]; user [REDACTED] at ci-host, broken");
  });

  it("a secret of four characters or more is cut inside words too, longest form first", () => {
    expect(redactor(["abcd", "abcdef"])("xabcdefx abcdy")).toBe("x[REDACTED]x [REDACTED]y");
  });
});
