import { isRow, type Row } from '../protocol/row';

/**
 * Reads a data-plane JSON answer as its text arrives, turning the elements of
 * its top-level `"body"` array into rows chunk by chunk, so that the whole
 * answer is never held as one string. The other top-level members (e.g.
 * `total_rows`, or `error` from a refusal) are small and parsed at the end.
 *
 * It tracks only what is needed to find element boundaries (nesting depth,
 * strings and their escapes); each element is then parsed by `JSON.parse`,
 * which does the real validation.
 */
export class BodyRowsReader {
  private pending = '';
  /** Scan position in `pending`. */
  private position = 0;
  private depth = 0;
  private inString = false;
  /** Top-level member whose value is being read, once its key is complete. */
  private memberKey: string | undefined;
  private keyStart = -1;
  private valueStart = -1;
  /** Start of the current body element (depth 2 inside "body"), or -1. */
  private elementStart = -1;
  private inBody = false;
  private readonly rows: Row[] = [];
  private readonly members: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  private sawBody = false;
  /** The top-level value has closed: only whitespace may follow. */
  private complete = false;

  push(text: string): void {
    this.pending += text;
    this.scan();
    this.compact();
  }

  /** The rows and the other top-level members, once the answer is complete. */
  finish(): { body: Row[] | undefined; members: Record<string, unknown> } {
    if (!this.complete) {
      throw new SyntaxError('The answer ended before its JSON was complete');
    }
    return { body: this.sawBody ? this.rows : undefined, members: this.members };
  }

  private scan(): void {
    const text = this.pending;
    let i = this.position;
    const length = text.length;
    while (i < length) {
      if (this.inString) {
        const quote = text.indexOf('"', i);
        if (quote === -1) {
          i = length;
          break;
        }
        if (isEscaped(text, quote)) {
          i = quote + 1;
          continue;
        }
        this.inString = false;
        i = quote + 1;
        if (this.depth === 1 && this.keyStart !== -1 && this.memberKey === undefined) {
          this.memberKey = JSON.parse(text.slice(this.keyStart, i)) as string;
          this.keyStart = -1;
        }
        continue;
      }
      const code = text.charCodeAt(i);
      if (this.depth === 0 && !isWhitespace(code) && (this.complete || (code !== 0x7b && code !== 0x5b))) {
        throw new SyntaxError('The answer is not one JSON object');
      }
      if (
        this.inBody &&
        this.depth === 2 &&
        code !== 0x7b &&
        code !== 0x5b &&
        code !== 0x5d &&
        code !== 0x2c &&
        !isWhitespace(code)
      ) {
        throw new SyntaxError('A body element is not an object');
      }
      if (code === 0x22 /* " */) {
        if (this.depth === 1 && this.memberKey === undefined) this.keyStart = i;
        this.inString = true;
      } else if (code === 0x7b /* { */ || code === 0x5b /* [ */) {
        this.depth++;
        if (this.depth === 2) this.startValue(i, code === 0x5b);
        else if (this.depth === 3 && this.inBody) this.elementStart = i;
      } else if (code === 0x7d /* } */ || code === 0x5d /* ] */) {
        this.depth--;
        if (this.depth < 0) throw new SyntaxError('Unbalanced brackets in the answer');
        if (this.depth === 2 && this.inBody && this.elementStart !== -1) {
          this.addRow(text.slice(this.elementStart, i + 1));
          this.elementStart = -1;
        } else if (this.depth === 1) this.endValue(text, i + 1);
        else if (this.depth === 0) {
          if (this.valueStart !== -1) this.endValue(text, i);
          this.complete = true;
        }
      } else if (code === 0x3a /* : */ && this.depth === 1) {
        this.valueStart = i + 1;
      } else if (code === 0x2c /* , */ && this.depth === 1 && this.valueStart !== -1) {
        this.endValue(text, i);
      }
      i++;
    }
    this.position = i;
  }

  private startValue(index: number, isArray: boolean): void {
    this.valueStart = index;
    if (this.memberKey === 'body' && isArray) {
      this.inBody = true;
      this.sawBody = true;
    }
  }

  /** A top-level member's value ended just before `end`: store it (the body's rows are already collected). */
  private endValue(text: string, end: number): void {
    if (this.memberKey !== undefined && !(this.memberKey === 'body' && this.inBody)) {
      this.members[this.memberKey] = JSON.parse(text.slice(this.valueStart, end));
    }
    this.inBody = false;
    this.memberKey = undefined;
    this.valueStart = -1;
  }

  private addRow(json: string): void {
    const row: unknown = JSON.parse(json);
    if (!isRow(row)) throw new SyntaxError('A body element is not an object');
    this.rows.push(row);
  }

  /** Drops the text already turned into rows, keeping what an unfinished value still needs. */
  private compact(): void {
    const keep = [this.elementStart, this.keyStart, this.inBody ? -1 : this.valueStart].filter((index) => index !== -1);
    const from = keep.length > 0 ? Math.min(...keep) : this.position;
    if (from === 0) return;
    this.pending = this.pending.slice(from);
    this.position -= from;
    if (this.elementStart !== -1) this.elementStart -= from;
    if (this.keyStart !== -1) this.keyStart -= from;
    if (this.valueStart !== -1) this.valueStart = this.inBody ? -1 : this.valueStart - from;
  }
}

/** Whether the quote at `index` is escaped (preceded by an odd number of backslashes). */
function isEscaped(text: string, index: number): boolean {
  let backslashes = 0;
  for (let i = index - 1; i >= 0 && text.charCodeAt(i) === 0x5c; i--) backslashes++;
  return backslashes % 2 === 1;
}

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}
