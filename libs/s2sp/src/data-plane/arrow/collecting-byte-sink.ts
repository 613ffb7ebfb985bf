import { AsyncByteQueue } from 'apache-arrow';

type WriterChunk = Parameters<AsyncByteQueue['write']>[0];

/**
 * The sink a RecordBatchStreamWriter writes into, taken out synchronously after each
 * message: the writer produces its bytes synchronously, and the stock queue would only
 * give them back through an async iterator that cannot tell "nothing more yet" from "wait".
 */
export class CollectingByteSink extends AsyncByteQueue {
  private chunks: Uint8Array[] = [];
  private byteLength = 0;

  override write(chunk: WriterChunk): void {
    // RecordBatchWriter hands its sink only Uint8Arrays.
    if (!ArrayBuffer.isView(chunk)) throw new TypeError('CollectingByteSink takes only byte views.');
    const bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (bytes.byteLength === 0) return;
    this.chunks.push(bytes);
    this.byteLength += bytes.byteLength;
  }

  /** Everything written since the last call, as one contiguous copy. */
  take(): Uint8Array {
    const joined = new Uint8Array(this.byteLength);
    let offset = 0;
    for (const chunk of this.chunks) {
      joined.set(chunk, offset);
      offset += chunk.byteLength;
    }
    this.chunks = [];
    this.byteLength = 0;
    return joined;
  }
}
