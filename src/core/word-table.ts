/**
 * A table looked up by words a document, a brief or a request says: without a prototype, so "constructor" or
 * "toString" find nothing rather than Object's own functions (a search for "constructor" crashed on SYNONYMS).
 */
export function wordTable<T>(entries: Record<string, T> = {}): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, entries);
}
