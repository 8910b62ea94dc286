/** A count with its noun, singular for one: "1 scenario", "3 scenarios", "0 scenarios". */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
