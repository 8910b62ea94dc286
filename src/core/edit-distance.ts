import { compareText } from "./text-order.js";

/** Levenshtein distance: what "did you mean" ranks by (the generated CLI's runtime and inter's own CLI share it). */
function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = row[j]!;
      row[j] = next;
    }
  }
  return row[b.length]!;
}

/** The candidates close enough to `typed` to be what was meant, closest first (at most `most`). */
export function closest(typed: string, candidates: string[], most = 5): string[] {
  const limit = Math.max(2, Math.floor(typed.length / 3));
  return candidates
    .map((name) => ({ name, d: editDistance(typed, name) }))
    .filter((x) => x.d <= limit)
    .sort((a, b) => a.d - b.d || compareText(a.name, b.name))
    .slice(0, most)
    .map((x) => x.name);
}
