/** A column of an audit table: its name and its SQL type. */
export type RecordsetColumn = readonly [column: string, sqlType: string];

/**
 * The statement that inserts any number of rows with one parameter, `$1`: a
 * JSON array of row objects keyed by column name (a key left out is SQL NULL).
 * Each row gets a fresh uuid `id`. One statement whatever the batch size, on
 * the database's driver: Prisma's `createMany` costs about 0.8 ms per row on
 * the embedded database and loads Prisma's query compiler
 * (docs/data-plane-memory.md), this about 0.1 ms.
 */
export function recordsetInsert(table: string, columns: readonly RecordsetColumn[]): string {
  const names = columns.map(([column]) => `"${column}"`).join(', ');
  const types = columns.map(([column, sqlType]) => `"${column}" ${sqlType}`).join(', ');
  return `INSERT INTO "${table}" ("id", ${names}) SELECT gen_random_uuid(), ${names} FROM jsonb_to_recordset($1::jsonb) AS row(${types})`;
}
