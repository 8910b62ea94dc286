import type { SchemeKind } from "./kind.js";
import { oneValue } from "./kind.js";

/** An API key in a header, a query parameter or a cookie, as its scheme names it. */
export const apiKey: SchemeKind = {
  is: (scheme) => scheme.type === "apiKey",
  rank: (scheme) => (scheme.name && ["header", "query", "cookie"].includes(scheme.in ?? "") ? 0 : undefined),
  roles: () => ["value"],
  source: oneValue,
  needs: (scheme) => scheme.env.value ?? "",
  how: (_name, scheme) =>
    scheme.in === "query"
      ? `${scheme.env.value} is sent as the query parameter ${scheme.name} (?${scheme.name}=<value>)`
      : scheme.in === "cookie"
        ? `${scheme.env.value} is sent as the cookie ${scheme.name} (Cookie: ${scheme.name}=<value>)`
        : `${scheme.env.value} is sent as the ${scheme.name} header (${scheme.name}: <value>)`,
  place: (scheme, value) =>
    scheme.in === "query"
      ? { query: scheme.name! }
      : scheme.in === "cookie"
        ? { cookie: scheme.name! }
        : { header: scheme.name!.toLowerCase(), value },
  carried(request, scheme, redacted) {
    if (!scheme.name) return false;
    if (scheme.in === "query") {
      try {
        return new URL(request.url).searchParams.get(scheme.name) === redacted;
      } catch {
        return false;
      }
    }
    if (scheme.in === "cookie") {
      const cookies = (request.header("cookie") ?? "").split("; ");
      return (
        cookies.includes(`${encodeURIComponent(scheme.name)}=${redacted}`) ||
        cookies.includes(`${scheme.name}=${redacted}`)
      );
    }
    return request.header(scheme.name) === redacted;
  },
};
