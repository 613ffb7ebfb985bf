/**
 * Whether a string column is sent dictionary-encoded, judged on its first record
 * batch: when its strings repeat, on average at least twice each. Then a reader
 * makes one string per distinct value of a batch instead of one per cell, and
 * the column's bytes shrink to a 4-byte key per cell. Unique values (ids, free
 * text) stay plain Utf8, where a dictionary would only add the keys.
 */
export function stringsRepeat(cells: readonly unknown[], length: number): boolean {
  const distinct = new Set<string>();
  let strings = 0;
  for (let index = 0; index < length; index += 1) {
    const value = cells[index];
    if (typeof value !== 'string') continue;
    strings += 1;
    distinct.add(value);
  }
  return strings > 0 && distinct.size * 2 <= strings;
}
