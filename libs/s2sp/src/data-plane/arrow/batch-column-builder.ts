import { Bool, Data, Float64, makeData, Null, Utf8 } from 'apache-arrow';
import { Bitmap } from './bitmap';
import { isAbsentCell, type ColumnKind } from './column-kind';

/** Collects one column of one record batch, cell by cell, then hands it over as Arrow data. */
export interface BatchColumnBuilder {
  append(value: unknown): void;
  finish(): Data;
}

/** Offsets of a Utf8 column are Int32. */
const MAX_UTF8_BYTES_PER_BATCH = 2 ** 31 - 1;

class NullColumnBuilder implements BatchColumnBuilder {
  constructor(private readonly length: number) {}

  append(): void {}

  finish(): Data {
    return makeData({ type: new Null(), length: this.length });
  }
}

class Float64ColumnBuilder implements BatchColumnBuilder {
  private readonly values: Float64Array;
  private readonly validity: Bitmap;
  private next = 0;

  constructor(private readonly length: number) {
    this.values = new Float64Array(length);
    this.validity = new Bitmap(length);
  }

  append(value: unknown): void {
    if (typeof value === 'number') {
      this.values[this.next] = value;
      this.validity.set(this.next);
    }
    this.next += 1;
  }

  finish(): Data {
    const nullCount = this.validity.unsetCount;
    return makeData({ type: new Float64(), length: this.length, nullCount, nullBitmap: nullCount > 0 ? this.validity.bytes : null, data: this.values });
  }
}

class BoolColumnBuilder implements BatchColumnBuilder {
  private readonly values: Bitmap;
  private readonly validity: Bitmap;
  private next = 0;

  constructor(private readonly length: number) {
    this.values = new Bitmap(length);
    this.validity = new Bitmap(length);
  }

  append(value: unknown): void {
    if (typeof value === 'boolean') {
      if (value) this.values.set(this.next);
      this.validity.set(this.next);
    }
    this.next += 1;
  }

  finish(): Data {
    const nullCount = this.validity.unsetCount;
    return makeData({ type: new Bool(), length: this.length, nullCount, nullBitmap: nullCount > 0 ? this.validity.bytes : null, data: this.values.bytes });
  }
}

/** Strings as they are (`utf8` columns) or every value as its JSON text (`json` columns). */
class TextColumnBuilder implements BatchColumnBuilder {
  private readonly texts: Array<string | null>;
  private next = 0;

  constructor(
    private readonly length: number,
    private readonly asJsonText: boolean,
  ) {
    this.texts = new Array<string | null>(length).fill(null);
  }

  append(value: unknown): void {
    if (value !== null && !isAbsentCell(value)) {
      // A value whose JSON text is undefined (a toJSON returning undefined) travels as null.
      this.texts[this.next] = this.asJsonText ? (JSON.stringify(value) ?? null) : (value as string);
    }
    this.next += 1;
  }

  finish(): Data {
    const valueOffsets = new Int32Array(this.length + 1);
    const validity = new Bitmap(this.length);
    // One UTF-8 encoding of the whole column: per-cell encoding calls cost more than the text.
    let joined = '';
    for (let index = 0; index < this.length; index += 1) {
      const text = this.texts[index];
      if (text === null || text === undefined) continue;
      joined += text;
      validity.set(index);
    }
    const bytes = Buffer.from(joined, 'utf8');
    if (bytes.byteLength > MAX_UTF8_BYTES_PER_BATCH) {
      throw new RangeError(`A batch of column text exceeds ${MAX_UTF8_BYTES_PER_BATCH} bytes of UTF-8; encode with fewer batchRows.`);
    }
    // As many bytes as UTF-16 units only when every character is ASCII: offsets are then string lengths.
    const ascii = bytes.byteLength === joined.length;
    let offset = 0;
    for (let index = 0; index < this.length; index += 1) {
      const text = this.texts[index];
      if (text !== null && text !== undefined) offset += ascii ? text.length : Buffer.byteLength(text, 'utf8');
      valueOffsets[index + 1] = offset;
    }
    const nullCount = validity.unsetCount;
    return makeData({
      type: new Utf8(),
      length: this.length,
      nullCount,
      nullBitmap: nullCount > 0 ? validity.bytes : null,
      valueOffsets,
      data: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    });
  }
}

/** The companion column of a column with absent cells: bit set = the cell is present. */
export class PresenceColumnBuilder implements BatchColumnBuilder {
  private readonly presence: Bitmap;
  private next = 0;

  constructor(private readonly length: number) {
    this.presence = new Bitmap(length);
  }

  append(value: unknown): void {
    if (!isAbsentCell(value)) this.presence.set(this.next);
    this.next += 1;
  }

  finish(): Data {
    return makeData({ type: new Bool(), length: this.length, nullCount: 0, data: this.presence.bytes });
  }
}

export function createBatchColumnBuilder(kind: ColumnKind, length: number): BatchColumnBuilder {
  switch (kind) {
    case 'null':
      return new NullColumnBuilder(length);
    case 'float64':
      return new Float64ColumnBuilder(length);
    case 'bool':
      return new BoolColumnBuilder(length);
    case 'utf8':
      return new TextColumnBuilder(length, false);
    case 'json':
      return new TextColumnBuilder(length, true);
  }
}
