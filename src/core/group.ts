/**
 * Appends a value to the list a map holds under a key, in place. Building the list by copying (`[...old, value]`) is
 * quadratic in its length, and one name or auth note of a 22,000-operation description is wanted by thousands.
 */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
