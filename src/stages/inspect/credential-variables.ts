/** The credential variables a CLI's help declares: a list (`auth.env`), or one name from CLIs of one credential. */
export function credentialVariablesOf(help: { auth?: { env?: unknown } } | undefined): string[] {
  const env = help?.auth?.env;
  return (Array.isArray(env) ? env : [env]).filter(
    (n): n is string => typeof n === "string" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(n),
  );
}
