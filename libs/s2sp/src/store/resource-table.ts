import { isRow, type Row } from '../protocol/row';

/** Rows per encoded block: keeps each block's text far below V8's string length limit. */
const ROWS_PER_BLOCK = 8192;

/**
 * The full rows of one cached resource, every column, in `_row_id` order: row
 * `i` is the row whose `_row_id` is `i` (the id itself is not stored in it).
 *
 * The encoded form is a list of blocks, each the JSON text of an array of up
 * to {@link ROWS_PER_BLOCK} rows; concatenated, the blocks hold every row in
 * order. Encoding costs one `JSON.stringify` of the rows, and a database can
 * keep each block as one value.
 */
export class ResourceTable {
  private constructor(
    readonly rows: readonly Row[],
    /** Length of the encoded text in UTF-16 code units: the table's size for caches and limits. */
    readonly encodedLength: number,
    private blocks: readonly string[] | undefined,
  ) {}

  get rowCount(): number {
    return this.rows.length;
  }

  /**
   * Captures the rows as they are now. The table keeps the row objects for
   * serving; the encoded blocks are the snapshot that is persisted.
   * A row that cannot be encoded (e.g. a BigInt) fails here, before anything is stored.
   */
  static capture(rows: readonly Row[]): ResourceTable {
    const blocks: string[] = [];
    let length = 0;
    for (let start = 0; start < rows.length; start += ROWS_PER_BLOCK) {
      const block = JSON.stringify(rows.slice(start, start + ROWS_PER_BLOCK));
      blocks.push(block);
      length += block.length;
    }
    return new ResourceTable(rows, length, blocks);
  }

  /** Rebuilds a table from its encoded blocks, in order; anything else is an error, never a partial table. */
  static decode(blocks: readonly string[], expectedRows: number): ResourceTable {
    const rows: Row[] = [];
    let length = 0;
    for (const [index, block] of blocks.entries()) {
      length += block.length;
      let parsed: unknown;
      try {
        parsed = JSON.parse(block);
      } catch {
        throw new Error(`Stored table block ${index} is not valid JSON`);
      }
      if (!Array.isArray(parsed) || !parsed.every(isRow)) throw new Error(`Stored table block ${index} is not an array of rows`);
      for (const row of parsed) rows.push(row);
    }
    if (rows.length !== expectedRows) throw new Error(`Stored table has ${rows.length} rows; ${expectedRows} were stored`);
    return new ResourceTable(rows, length, undefined);
  }

  /** The encoded blocks; only a captured table has them, until they are released (a decoded one is already stored). */
  encodedBlocks(): readonly string[] {
    if (this.blocks === undefined) throw new Error('This table has no encoded blocks: it was read back, or they were released once stored');
    return this.blocks;
  }

  /** Frees the encoded text once it is stored; the rows stay for serving. */
  releaseEncoding(): void {
    this.blocks = undefined;
  }
}
