import { ArrowDecodeError, ArrowResponseTooLargeError } from './arrow-errors';

/**
 * Passes a byte source through, counting, and fails with ArrowResponseTooLargeError on the
 * chunk that takes the total over `maxBytes`. Remembers a failure of the source itself so
 * that the caller can hand it on unchanged instead of calling the bytes malformed.
 */
export class ByteLimitedSource implements AsyncIterable<Uint8Array> {
  private bytesSoFar = 0;
  private sourceFailure: { error: unknown } | null = null;
  private readonly iterator: AsyncGenerator<Uint8Array, void, undefined>;

  constructor(
    source: AsyncIterable<Uint8Array>,
    private readonly maxBytes: number,
  ) {
    this.iterator = this.pass(source);
  }

  /** The error the source threw, if it did. */
  get failure(): { error: unknown } | null {
    return this.sourceFailure;
  }

  [Symbol.asyncIterator](): AsyncGenerator<Uint8Array, void, undefined> {
    return this.iterator;
  }

  /** Stops reading and lets the source release what it holds (a socket, a file). */
  close(): void {
    // Not awaited: a source stalled inside a read would keep the caller waiting for nothing.
    this.iterator.return(undefined).catch(() => undefined);
  }

  private async *pass(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array, void, undefined> {
    const iterator = source[Symbol.asyncIterator]();
    try {
      while (true) {
        let step: IteratorResult<Uint8Array>;
        try {
          step = await iterator.next();
        } catch (error) {
          this.sourceFailure = { error };
          throw error;
        }
        if (step.done) return;
        const chunk: unknown = step.value;
        if (!(chunk instanceof Uint8Array))
          throw new ArrowDecodeError('The byte source yielded something other than a Uint8Array.');
        this.bytesSoFar += chunk.byteLength;
        if (this.bytesSoFar > this.maxBytes) throw new ArrowResponseTooLargeError(this.maxBytes);
        yield chunk;
      }
    } finally {
      // Releasing the source must not replace the error that ended the read, if any.
      if (this.sourceFailure === null) await Promise.resolve(iterator.return?.()).catch(() => undefined);
    }
  }
}
