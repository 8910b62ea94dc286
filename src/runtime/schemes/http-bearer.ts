import type { SchemeKind } from "./kind.js";
import { httpSchemeOf, oneValue } from "./kind.js";

/** HTTP Bearer: `Authorization: Bearer <value>`. */
export const httpBearer: SchemeKind = {
  is: (scheme) => scheme.type === "http" && httpSchemeOf(scheme) === "bearer",
  rank: () => 0,
  roles: () => ["value"],
  source: oneValue,
  needs: (scheme) => scheme.env.value ?? "",
  how: (_name, scheme) =>
    `${scheme.env.value} is sent as "Authorization: Bearer <value>"${scheme.bearerFormat ? ` (a ${scheme.bearerFormat})` : ""}`,
  place: (_scheme, value) => ({ header: "authorization", value: `Bearer ${value}` }),
  carried: (request) => /^bearer \S/i.test(request.header("authorization") ?? ""),
};
