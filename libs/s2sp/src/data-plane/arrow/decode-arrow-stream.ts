import { RecordBatchReader, type RecordBatch } from 'apache-arrow';
import { ArrowDecodeError, ArrowResponseTooLargeError } from './arrow-errors';
import { ROW_ID_FIELD_NAME } from './arrow-wire-format';
import { batchCellReader, presenceReader, type DictionaryEntries } from './batch-cell-reader';
import { ByteLimitedSource } from './byte-limited-source';
import { createRowFactory, type RowFactory } from './row-factory';
import { readWireLayout, type WireLayout } from './wire-schema';

export interface ArrowStreamDecodeOptions {
  /** The most bytes read from the source; one more and the decoding fails with ArrowResponseTooLargeError. */
  maxBytes: number;
}

export interface DecodedArrowTable {
  /** The data columns in stream order, without `_row_id`. */
  columns: string[];
  /** `{ _row_id, ...cells }` per row, in stream order; absent cells are left out. */
  rows: Array<Record<string, unknown>>;
}

function setOwn(row: Record<string, unknown>, name: string, value: unknown): void {
  // Assigning to `__proto__` would set the prototype instead of making a property.
  if (name === '__proto__')
    Object.defineProperty(row, name, { value, enumerable: true, writable: true, configurable: true });
  else row[name] = value;
}

interface AnswerDecoding {
  readonly layout: WireLayout;
  readonly rowFactory: RowFactory | null;
  readonly dictionaries: DictionaryEntries;
  readonly rows: Array<Record<string, unknown>>;
}

function appendRows(batch: RecordBatch, { layout, rowFactory, dictionaries, rows }: AnswerDecoding): void {
  const children = batch.data.children;
  const length = batch.numRows;
  if (children.length !== batch.schema.fields.length || children.some((child) => child.length !== length)) {
    throw new ArrowDecodeError('A record batch has columns of different lengths.');
  }
  const rowIdData = children[0];
  const rowIds = rowIdData.values as Int32Array;
  if (rowIdData.nullCount !== 0 || rowIds.length < length)
    throw new ArrowDecodeError(`The ${ROW_ID_FIELD_NAME} column of a record batch has nulls or is short.`);
  const readers = layout.columns.map((column) => ({
    name: column.name,
    valueAt: batchCellReader(children[column.valueFieldIndex], column.kind, column.name, dictionaries),
    isPresent:
      column.presenceFieldIndex === null ? null : presenceReader(children[column.presenceFieldIndex], column.name),
  }));
  const cells = readers.map((reader) => reader.valueAt);
  const hasPresenceFields = readers.some((reader) => reader.isPresent !== null);
  for (let index = 0; index < length; index += 1) {
    const rowId = rowIds[index];
    if (rowId < 0) throw new ArrowDecodeError(`A ${ROW_ID_FIELD_NAME} is negative: ${rowId}.`);
    const isComplete =
      !hasPresenceFields || readers.every((reader) => reader.isPresent === null || reader.isPresent(index));
    if (isComplete && rowFactory !== null) {
      rows.push(rowFactory(rowId, index, cells));
      continue;
    }
    const row: Record<string, unknown> = { _row_id: rowId };
    for (const reader of readers) {
      if (reader.isPresent === null || reader.isPresent(index)) setOwn(row, reader.name, reader.valueAt(index));
    }
    rows.push(row);
  }
}

async function decodeFrom(source: ByteLimitedSource): Promise<DecodedArrowTable> {
  const reader = await RecordBatchReader.from(source);
  await reader.open();
  if (reader.isFile()) throw new ArrowDecodeError('The bytes are an Arrow file, not an Arrow IPC stream.');
  if (!reader.schema) throw new ArrowDecodeError('The Arrow stream ended before its schema.');
  const layout = readWireLayout(reader.schema);
  const decoding: AnswerDecoding = {
    layout,
    rowFactory: createRowFactory(layout.columns.map((column) => column.name)),
    dictionaries: new WeakMap(),
    rows: [],
  };
  const { rows } = decoding;
  for await (const batch of reader) {
    if (rows.length + batch.numRows > layout.totalRows) {
      throw new ArrowDecodeError(`The Arrow stream has more rows than the ${layout.totalRows} it announced.`);
    }
    appendRows(batch, decoding);
  }
  if (rows.length !== layout.totalRows) {
    throw new ArrowDecodeError(
      `The Arrow stream ended after ${rows.length} of the ${layout.totalRows} rows it announced.`,
    );
  }
  return { columns: layout.columns.map((column) => column.name), rows };
}

/**
 * Decodes an S2SP Arrow answer (README.md in this folder) as its bytes arrive. Fails with
 * ArrowResponseTooLargeError once more than `maxBytes` have arrived, with ArrowDecodeError
 * for bytes that are not such an answer, and with the source's own error if it fails.
 */
export async function decodeArrowStream(
  source: AsyncIterable<Uint8Array>,
  options: ArrowStreamDecodeOptions,
): Promise<DecodedArrowTable> {
  const { maxBytes } = options;
  if (typeof maxBytes !== 'number' || Number.isNaN(maxBytes) || maxBytes < 0)
    throw new RangeError(`maxBytes must be a non-negative number, got ${maxBytes}.`);
  const limited = new ByteLimitedSource(source, maxBytes);
  try {
    return await decodeFrom(limited);
  } catch (error) {
    if (limited.failure !== null) throw limited.failure.error;
    if (error instanceof ArrowResponseTooLargeError || error instanceof ArrowDecodeError) throw error;
    throw new ArrowDecodeError(
      `The bytes are not a readable Arrow IPC stream: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  } finally {
    limited.close();
  }
}
