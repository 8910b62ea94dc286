import type { SchemeKind } from "./kind.js";
import { httpSchemeOf, read } from "./kind.js";

/**
 * HTTP Basic: a user and a password, or (when the config names one variable for it) `value`, the two joined by a
 * colon; the CLI base64-encodes them (RFC 7617).
 */
export const httpBasic: SchemeKind = {
  is: (scheme) => scheme.type === "http" && httpSchemeOf(scheme) === "basic",
  rank: () => 2,
  roles: () => ["username", "password"],
  source(scheme) {
    const env = scheme.env;
    if (env.value) {
      // One variable holding `user:password` (RFC 7617: the user holds no colon); no colon is a user with no password.
      const pair = read(env.value);
      if (!pair) return undefined;
      const at = pair.indexOf(":");
      return { kind: "basic", username: at < 0 ? pair : pair.slice(0, at), password: at < 0 ? "" : pair.slice(at + 1) };
    }
    const username = read(env.username);
    // RFC 7617 allows an empty password (Stripe's secret key is the user alone): the user is what must be set.
    return username ? { kind: "basic", username, password: read(env.password) ?? "" } : undefined;
  },
  needs: (scheme) =>
    scheme.env.value ?? `${scheme.env.username} (and ${scheme.env.password}, unless the password is empty)`,
  how(name, scheme) {
    const env = scheme.env;
    const parts = namedParts(name);
    return env.value
      ? `${env.value} is sent as HTTP Basic: set it to <user>:<password> (the two joined by a colon${parts ? `; for ${name}, <${parts[0]}>:<${parts[1]}>` : ""}); the CLI base64-encodes it into "Authorization: Basic <base64>" (a value without a colon is the user with an empty password)`
      : `${env.username} and ${env.password} are sent as HTTP Basic, user and password${parts ? ` (for ${name}: the ${parts[0]} and the ${parts[1]})` : ""}; the CLI base64-encodes them into "Authorization: Basic <base64>" (an unset password is empty)`;
  },
  // RFC 7617: user-id ":" password (the source joins them; an empty password is allowed).
  place: (_scheme, value) => ({
    header: "authorization",
    value: `Basic ${Buffer.from(value.includes(":") ? value : `${value}:`).toString("base64")}`,
  }),
  carried: (request) => (request.header("authorization") ?? "").toLowerCase().startsWith("basic "),
};

/** A Basic scheme named after its two parts (Twilio's `accountSid_authToken`) says what user and password are. */
function namedParts(name: string): [string, string] | undefined {
  const parts = /^([A-Za-z][A-Za-z0-9]*)[_:]([A-Za-z][A-Za-z0-9]*)$/.exec(name);
  const generic =
    /^(basic|http|https|auth|authentication|authorization|security|scheme|default|credentials?|api|apikey|key|token|bearer)$/i;
  return parts && !generic.test(parts[1]!) && !generic.test(parts[2]!) ? [parts[1]!, parts[2]!] : undefined;
}
