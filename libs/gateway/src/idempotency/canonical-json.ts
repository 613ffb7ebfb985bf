/**
 * JSON with object members sorted by name at every level, so that two
 * requests with the same content hash alike whatever their member order.
 * undefined members are left out, as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortMembers(value)) ?? 'null';
}

function sortMembers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortMembers);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const member = (value as Record<string, unknown>)[key];
    if (member !== undefined) sorted[key] = sortMembers(member);
  }
  return sorted;
}
