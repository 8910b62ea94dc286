import { ExactInteger } from "./exact.js";
import type { Response } from "./http.js";
import type { Command, Flag, Pagination } from "./manifest.js";

/** What one response says about paging, in the shape every command prints (`page`). */
export interface PageInfo {
  has_more: boolean;
  total?: number;
  next_cursor?: string | null;
  pages?: number;
}

/** How to ask for the page after this one: extra query values, or a whole URL the API gave. */
export type NextRequest = { query: Record<string, string> } | { url: string } | undefined;

export interface PageRead {
  items: unknown;
  info?: PageInfo;
  next: NextRequest;
}

const at = (data: unknown, path: string | undefined): unknown => {
  if (!path) return undefined;
  let value = data;
  for (const key of path.split(".")) {
    if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
};

const header = (response: Response, name: string) => {
  const value = response.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(",") : value;
};

function nextLink(response: Response): string | undefined {
  const text = header(response, "link");
  if (!text) return undefined;
  for (const part of text.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (match && /;\s*rel\s*=\s*"?([^";]*\s)?next(\s[^";]*)?"?/i.test(match[2]!)) return match[1];
  }
  return undefined;
}

const asNumber = (v: unknown): number | undefined =>
  typeof v === "number" && Number.isFinite(v) ? v : typeof v === "string" && /^\d+$/.test(v) ? Number(v) : undefined;

/** A `next` value that is a link (absolute, or relative to the request), not a cursor. */
const isUrl = (v: string) => /^(https?:\/\/|\/|\?)/.test(v);

/** The value a flag had in this request, or its default: the current page number, offset or page size. */
function current(
  command: Command,
  values: Map<Flag, unknown>,
  wire: string | undefined,
  extra: Record<string, string>,
): number | undefined {
  if (!wire) return undefined;
  if (extra[wire] !== undefined) return Number(extra[wire]);
  const flag = command.flags.find((f) => f.in === "query" && f.wire === wire);
  if (!flag) return undefined;
  return asNumber(values.get(flag) ?? flag.default);
}

/**
 * Splits one list response into its items, what it says about paging (`has_more`, `total`) and how to ask for the
 * next page — for cursors, page numbers, offsets, Link headers and `next` URLs alike. Without an explicit signal a
 * page-number or offset API has more when a full page came back.
 */
export function readPage(
  command: Command,
  response: Response,
  values: Map<Flag, unknown>,
  extra: Record<string, string> = {},
  requestUrl?: string,
): PageRead {
  const data = response.data;
  const field = command.output.listField;
  const wrapped =
    field &&
    data &&
    typeof data === "object" &&
    !Array.isArray(data) &&
    Array.isArray((data as Record<string, unknown>)[field]);
  const items = wrapped ? (data as Record<string, unknown>)[field!] : data;
  const p: Pagination | undefined = command.pagination;
  if (!p || !Array.isArray(items)) return { items, next: undefined };

  const total =
    asNumber(at(data, p.totalField)) ?? (p.totalHeader ? asNumber(header(response, p.totalHeader)) : undefined);
  const flagged = at(data, p.hasMoreField);
  const nextValue = at(data, p.nextField);
  const size = current(command, values, p.sizeParam, extra);
  let next: NextRequest;
  let cursor: string | null | undefined;

  if (p.style === "link") {
    const link = nextLink(response);
    if (link) next = { url: new URL(link, requestUrl).toString() };
  } else if (typeof nextValue === "string" && nextValue && (p.style === "url" || isUrl(nextValue))) {
    next = { url: new URL(nextValue, requestUrl).toString() };
  } else if (p.style === "cursor") {
    cursor =
      typeof nextValue === "string" || typeof nextValue === "number" || nextValue instanceof ExactInteger
        ? String(nextValue)
        : nextValue === null
          ? null
          : undefined;
    if (cursor) next = { query: { [p.param!]: cursor } };
  } else if (p.style === "page" || p.style === "offset") {
    const page = current(command, values, p.param, extra) ?? (p.style === "page" ? 1 : 0);
    // Items seen up to this page; a page number counts in pages of the requested size (the first page's, if unknown).
    const seen = p.style === "offset" ? page + items.length : (page - 1) * (size ?? items.length) + items.length;
    const more =
      typeof flagged === "boolean"
        ? flagged
        : total !== undefined
          ? seen < total
          : size !== undefined
            ? items.length >= size && items.length > 0
            : items.length > 0;
    if (more && items.length)
      next = { query: { [p.param!]: String(p.style === "page" ? page + 1 : page + items.length) } };
  }
  const hasMore = typeof flagged === "boolean" ? flagged : next !== undefined;
  return {
    items,
    info: {
      has_more: hasMore,
      ...(total !== undefined ? { total } : {}),
      ...(p.style === "cursor" && cursor !== undefined ? { next_cursor: cursor } : {}),
    },
    next,
  };
}
