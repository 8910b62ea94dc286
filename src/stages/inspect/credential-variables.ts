/** The credential variables a CLI's help declares: a list (`auth.env`), or one name from CLIs of one credential. */
export function credentialVariablesOf(help: { auth?: { env?: unknown } } | undefined): string[] {
  const env = help?.auth?.env;
  return (Array.isArray(env) ? env : [env]).filter(
    (n): n is string => typeof n === "string" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(n),
  );
}

/**
 * What a CLI's help says a signed request needs beside its credentials, as a user would export it: AWS Signature
 * Version 4 with no region of its own (no AWS host, no server default: Amazon Chime's `service.chime.aws.amazon.com`)
 * signs for the region AWS_REGION names, so a probe that sets made-up credentials sets one too.
 */
export function signingSettingsOf(help: { auth?: { schemes?: unknown } } | undefined): Record<string, string> {
  const schemes = help?.auth?.schemes && typeof help.auth.schemes === "object" ? Object.values(help.auth.schemes) : [];
  const regionless = schemes.some((s) => isSigV4(s as SignedScheme) && !(s as SignedScheme).aws?.region);
  return regionless ? { AWS_REGION: "us-east-1" } : {};
}

interface SignedScheme {
  signature?: { kind?: unknown; computed?: unknown };
  aws?: { region?: unknown };
}

/** Whether help declares a scheme as AWS Signature Version 4, computed by the CLI. */
export const isSigV4 = (s: SignedScheme | undefined) =>
  s?.signature?.kind === "aws-sigv4" && s.signature.computed === true;
