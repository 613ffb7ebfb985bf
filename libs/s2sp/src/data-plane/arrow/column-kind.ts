/**
 * How one column travels in Arrow, decided from every cell the answer selects:
 * - `float64`, `bool`, `utf8`: every present, non-null cell is a finite number, a boolean,
 *   a well-formed string respectively;
 * - `json`: anything else (objects, arrays, mixed kinds, non-finite numbers, strings with
 *   lone surrogates, which UTF-8 cannot carry), sent as each value's JSON text;
 * - `null`: no cell has a value.
 */
export type ColumnKind = 'null' | 'float64' | 'bool' | 'utf8' | 'json';

/** A cell that a JSON body would not carry: its key would be left out of the row. */
export function isAbsentCell(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** `String.prototype.isWellFormed` (Node 20): false when a string has a lone surrogate, which UTF-8 cannot carry. */
const isWellFormed = (String.prototype as unknown as { isWellFormed: (this: string) => boolean }).isWellFormed;

const enum Seen {
  Number = 1,
  Boolean = 2,
  String = 4,
  Other = 8,
  Absent = 16,
}

function seenOf(value: unknown): Seen | 0 {
  if (value === null) return 0;
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? Seen.Number : Seen.Other;
    case 'boolean':
      return Seen.Boolean;
    case 'string':
      return isWellFormed.call(value) ? Seen.String : Seen.Other;
    default:
      return isAbsentCell(value) ? Seen.Absent : Seen.Other;
  }
}

/** Accumulates what one column's cells are, one cell at a time, without keeping them. */
export class ColumnKindTally {
  private seen = 0;

  add(value: unknown): void {
    this.seen |= seenOf(value);
  }

  get hasAbsentCells(): boolean {
    return (this.seen & Seen.Absent) !== 0;
  }

  get kind(): ColumnKind {
    const valueKinds = this.seen & ~Seen.Absent;
    switch (valueKinds) {
      case 0:
        return 'null';
      case Seen.Number:
        return 'float64';
      case Seen.Boolean:
        return 'bool';
      case Seen.String:
        return 'utf8';
      default:
        return 'json';
    }
  }
}
