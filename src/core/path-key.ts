/**
 * A path key of an OpenAPI document as a request sends it. A key may carry what only tells two operations on one path
 * apart: a fragment (`/#Action=SendMessage`, `/ocr#overload=stream`), which no HTTP client sends, or a fixed query
 * (`/{Bucket}?acl`), which is the request's first query pairs.
 */
export function requestPathOf(key: string): { path: string; query: string } {
  const withoutFragment = key.replace(/#.*$/, "");
  const at = withoutFragment.indexOf("?");
  return at < 0
    ? { path: withoutFragment, query: "" }
    : { path: withoutFragment.slice(0, at), query: withoutFragment.slice(at + 1) };
}
