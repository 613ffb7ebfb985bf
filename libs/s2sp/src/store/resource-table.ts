import { columnsOf, isRow, ROW_ID, type Row } from '../protocol/row';
import { decodeColumnBlock, encodeColumnBlock } from './column-block';

/**
 * Rows per encoded block: small enough that writing one block to the database
 * overlaps encoding the next and only two blocks of text exist at a time,
 * large enough that a block costs one statement per hundreds of kilobytes.
 */
const ROWS_PER_BLOCK = 2048;

/**
 * The full rows of one cached resource, every column, in `_row_id` order: row
 * `i` is the row whose `_row_id` is `i` (the id itself is not stored in it).
 *
 * The table serves from the row objects. Its stored form is a list of blocks
 * of consecutive rows, each the JSON text of its columns
 * (`./column-block.ts`): no column name repeated per row, and arrays of plain
 * values, which V8 stringifies faster than objects. Blocks are encoded one at
 * a time as they are written ({@link encode}), so the whole text never exists at once.
 */
export class ResourceTable {
  private constructor(
    readonly rows: readonly Row[],
    private readonly columns: readonly string[],
    private length: number | undefined,
  ) {}

  /**
   * A table over these rows. It keeps the row objects: the publisher hands
   * them over, and they must not change afterwards (the stored copy is
   * encoded from them when it is written). `columns` is every column any row
   * has (found from the rows when omitted); a row's own `_row_id` is not
   * stored, since the data plane always answers with its own.
   */
  static of(rows: readonly Row[], columns?: readonly string[]): ResourceTable {
    return new ResourceTable(rows, (columns ?? columnsOf(rows)).filter((column) => column !== ROW_ID), undefined);
  }

  /**
   * Rebuilds a table from its encoded blocks, in order; anything else is an
   * error, never a partial table. Blocks written as arrays of row objects
   * (the stored form before column blocks) are read too.
   */
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
      if (Array.isArray(parsed)) {
        if (!parsed.every(isRow)) throw new Error(`Stored table block ${index} is not an array of rows`);
        for (const row of parsed) rows.push(row);
      } else if (!decodeColumnBlock(parsed, rows)) {
        throw new Error(`Stored table block ${index} is neither an array of rows nor a block of columns`);
      }
    }
    if (rows.length !== expectedRows) throw new Error(`Stored table has ${rows.length} rows; ${expectedRows} were stored`);
    return new ResourceTable(rows, columnsOf(rows), length);
  }

  get rowCount(): number {
    return this.rows.length;
  }

  /**
   * Length of the encoded text in UTF-16 code units (the table's size for
   * caches and limits): known once {@link encode} has run to the end, or for a decoded table.
   */
  get encodedLength(): number | undefined {
    return this.length;
  }

  /**
   * The stored form, one block per iteration step, each encoded only when it is
   * asked for. A row that cannot be encoded (e.g. a BigInt) throws here.
   */
  *encode(): Generator<string, void, undefined> {
    let length = 0;
    for (let start = 0; start < this.rows.length; start += ROWS_PER_BLOCK) {
      const block = encodeColumnBlock(this.rows, start, Math.min(this.rows.length, start + ROWS_PER_BLOCK), this.columns);
      length += block.length;
      yield block;
    }
    this.length = length;
  }
}
