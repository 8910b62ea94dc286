import type { Parameter, SecurityScheme } from "../openapi/model.js";
import { sendRank } from "../../runtime/auth.js";
import type { AuthScheme } from "../../runtime/manifest.js";
import { defaultExplode, defaultStyle, type Style } from "../../runtime/serialize.js";
import { clip, plainText } from "./plain-text.js";

/** How requests go on the wire: each parameter's serialization, and the credential each command sends. */

/**
 * A parameter's `style` and `explode` as its flag keeps them: only where they differ from OpenAPI's defaults (form in
 * query and cookie, simple in path and header; explode for form), and `explode` only for arrays and objects, whose
 * serialization it changes — so a document that says nothing special yields the same flags as before.
 */
export function flagStyle(p: Parameter): { style?: Style; explode?: boolean } {
  const structured = p.type === "array" || p.type === "object";
  return {
    ...(p.style !== defaultStyle(p.in) ? { style: p.style } : {}),
    ...(structured && p.explode !== defaultExplode(p.style) ? { explode: p.explode } : {}),
  };
}

/** What a command sends: one scheme (the CLI holds one credential), whether the API also takes none, and why. */
export interface AuthChoice {
  auth: string[];
  optional: boolean;
  /**
   * Said in the build's warnings (once for all operations it applies to): a choice among alternatives, or one that
   * leaves something out (an AND requirement, a scheme the CLI cannot send).
   */
  warning?: string;
}

/**
 * Picks, from an operation's security requirements (alternatives, each a set of schemes needed together), the one
 * scheme the CLI sends with its one credential variable — deterministically:
 * - an alternative of one scheme the CLI can send, preferring one whose value is the credential itself (apiKey, HTTP
 *   Bearer) over an OAuth 2 / OpenID Connect token, then HTTP Basic (a value made of two), then another HTTP scheme;
 *   ties go to the document's order (within one requirement, to the schemes' names);
 * - else an alternative needing several schemes at once (AND): the best of them is sent and the others are not (a
 *   warning says so; the API may refuse the call);
 * - an empty alternative (`{}`) makes the credential optional: sent when set, never demanded;
 * - schemes the CLI cannot send (mutualTLS, HTTP Digest, …) or that the document does not define are never chosen.
 */
export function chooseAuth(requirements: string[][], schemes: Record<string, SecurityScheme>): AuthChoice {
  if (!requirements.length) return { auth: [], optional: false };
  const optional = requirements.some((set) => set.length === 0);
  type Candidate = { name: string; rank: number; order: number; alone: boolean; others: string[] };
  const candidates: Candidate[] = [];
  requirements.forEach((set, order) => {
    for (const name of set) {
      const rank = sendRank(schemes[name]);
      if (rank !== undefined) candidates.push({ name, rank, order, alone: set.length === 1, others: set.filter((s) => s !== name) });
    }
  });
  candidates.sort((a, b) => Number(b.alone) - Number(a.alone) || a.rank - b.rank || a.order - b.order);
  const best = candidates[0];
  if (!best) {
    const needed = [...new Set(requirements.flat())];
    return { auth: [], optional, ...(needed.length && !optional ? { warning: `need ${needed.join(" or ")}, which the CLI cannot send from one credential variable (called without a credential)` } : {}) };
  }
  const alternatives = [...new Set(candidates.filter((c) => c.alone).sort((a, b) => a.order - b.order).map((c) => c.name))];
  const warning = !best.alone
    ? `need ${[best.name, ...best.others].join(" and ")} together; the CLI holds one credential, so it sends ${best.name} only (the API may refuse the call)`
    : alternatives.length > 1
      ? `accept ${alternatives.join(" or ")}; the CLI sends ${best.name}`
      : undefined;
  return { auth: [best.name], optional, ...(warning ? { warning } : {}) };
}

/** Plain text of a description (stages/design/plain-text.ts) on one line, at most `max` characters. */
function plainDescription(text: string, max = 300): string {
  return clip(plainText(text).replace(/\s+/g, " ").trim(), max);
}

/** A scheme as capabilities.json and the manifest keep it: how to send it, and its own description as plain text. */
export function planScheme(scheme: SecurityScheme): AuthScheme {
  const { description, bearerFormat, ...rest } = scheme;
  const text = description ? plainDescription(description) : "";
  return { ...rest, ...(bearerFormat ? { bearerFormat } : {}), ...(text ? { description: text } : {}) };
}
