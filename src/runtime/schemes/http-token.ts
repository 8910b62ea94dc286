import type { SchemeKind } from "./kind.js";
import { httpSchemeOf, oneValue } from "./kind.js";

/** HTTP schemes that need a challenge-response exchange or a key pair: one static value cannot answer them. */
const INTERACTIVE = new Set([
  "digest",
  "negotiate",
  "ntlm",
  "hoba",
  "mutual",
  "scram-sha-1",
  "scram-sha-256",
  "vapid",
  "concealed",
  "privatetoken",
]);

/** Any other HTTP scheme whose credential is one static token: `Authorization: <scheme> <value>`. */
export const httpToken: SchemeKind = {
  is: (scheme) => scheme.type === "http" && !["bearer", "basic"].includes(httpSchemeOf(scheme)),
  rank: (scheme) => {
    const s = httpSchemeOf(scheme);
    return INTERACTIVE.has(s) || !/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(s) ? undefined : 3;
  },
  roles: () => ["value"],
  source: oneValue,
  needs: (scheme) => scheme.env.value ?? "",
  how: (_name, scheme) => `${scheme.env.value} is sent as "Authorization: ${scheme.scheme} <value>"`,
  place: (scheme, value) => ({ header: "authorization", value: `${scheme.scheme} ${value}` }),
  carried: (request, scheme) =>
    (request.header("authorization") ?? "").toLowerCase().startsWith(`${String(scheme.scheme).toLowerCase()} `),
};
