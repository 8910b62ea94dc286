/** A count with its noun, singular for one: "1 scenario", "3 scenarios", "0 scenarios". */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/** "a, b or c", for help and messages. */
export const oneOf = (names: readonly string[]): string =>
  names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
