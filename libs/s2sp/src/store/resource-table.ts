import { columnsOf, isRow, ROW_ID, type Row } from '../protocol/row';
import { decodeColumnBlock, encodeColumnBlock } from './column-block';

/**
 * Length of an encoded block (UTF-16 code units) that the encoder aims at.
 * Each block is one string: below V8's large-object size (128 KB, even when
 * two bytes per character) it is freed by the young generation's quick
 * collections instead of waiting for a full one, so publishing a big table
 * does not leave its whole text behind as garbage. Still large enough that a
 * statement carries tens of kilobytes, and writing one block overlaps
 * encoding the next.
 */
const BLOCK_LENGTH_TARGET = 56_000;
/** Rows in the first block, before the rows' encoded width is known. */
const FIRST_BLOCK_ROWS = 64;
const MAX_ROWS_PER_BLOCK = 4096;

/**
 * The full rows of one cached resource, every column, in `_row_id` order: row
 * `i` is the row whose `_row_id` is `i` (the id itself is not stored in it).
 *
 * The table serves from the row objects. Its stored form is a list of blocks
 * of consecutive rows, each the JSON text of its columns
 * (`./column-block.ts`): no column name repeated per row, and arrays of plain
 * values, which V8 stringifies faster than objects. Blocks are encoded one at
 * a time as they are written ({@link encode}), so the whole text never exists at once.
 * A table of one block, once written, is kept in memory by that block alone ({@link compact}).
 * @public
 */
export class ResourceTable {
  /** The only block {@link encode} produced, kept for {@link compact}; undefined for a table of several blocks. */
  private onlyBlock: string | undefined;

  private constructor(
    private decodedRows: readonly Row[] | undefined,
    private readonly columns: readonly string[],
    private length: number | undefined,
    /** A compact table's encoded form, decoded on the first read of {@link rows}. */
    private readonly encoded?: { block: string; rowCount: number },
  ) {}

  /** The rows, in `_row_id` order (a compact table decodes them on the first read). */
  get rows(): readonly Row[] {
    this.decodedRows ??= ResourceTable.decode([this.encoded!.block], this.encoded!.rowCount).rows;
    return this.decodedRows;
  }

  /**
   * A table over these rows. It keeps the row objects: the publisher hands
   * them over, and they must not change afterwards (the stored copy is
   * encoded from them when it is written). `columns` is every column any row
   * has (found from the rows when omitted); a row's own `_row_id` is not
   * stored, since the data plane always answers with its own.
   */
  static of(rows: readonly Row[], columns?: readonly string[]): ResourceTable {
    return new ResourceTable(
      rows,
      (columns ?? columnsOf(rows)).filter((column) => column !== ROW_ID),
      undefined,
    );
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
    if (rows.length !== expectedRows)
      throw new Error(`Stored table has ${rows.length} rows; ${expectedRows} were stored`);
    return new ResourceTable(rows, columnsOf(rows), length);
  }

  get rowCount(): number {
    return this.decodedRows?.length ?? this.encoded!.rowCount;
  }

  /** Whether {@link encode} yields one block: few enough rows that encoding them costs next to nothing. */
  get fitsOneBlock(): boolean {
    return this.rowCount <= FIRST_BLOCK_ROWS;
  }

  /**
   * The same table held as its one encoded block, once {@link encode} has produced it: a string of
   * its encoded length instead of an object per row and cell (several times that in the heap, and
   * work for every collection while it is held). Its rows are decoded when first read. A table of
   * several blocks, or not encoded yet, is returned as it is.
   */
  compact(): ResourceTable {
    if (this.onlyBlock === undefined || this.length === undefined) return this;
    return new ResourceTable(undefined, this.columns, this.length, {
      block: this.onlyBlock,
      rowCount: this.rowCount,
    });
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
    if (this.encoded) {
      yield this.encoded.block;
      return;
    }
    const rows = this.rows;
    let length = 0;
    let rowsPerBlock = FIRST_BLOCK_ROWS;
    for (let start = 0; start < rows.length;) {
      const end = Math.min(rows.length, start + rowsPerBlock);
      const block = encodeColumnBlock(rows, start, end, this.columns);
      length += block.length;
      this.onlyBlock = start === 0 && end === rows.length ? block : undefined;
      yield block;
      rowsPerBlock = Math.max(
        1,
        Math.min(MAX_ROWS_PER_BLOCK, Math.floor((BLOCK_LENGTH_TARGET * (end - start)) / block.length)),
      );
      start = end;
    }
    this.length = length;
  }
}
