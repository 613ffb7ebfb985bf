/** The bytes of an Arrow data-plane answer passed the caller's limit before the stream ended. */
export class ArrowResponseTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The Arrow response is larger than the limit of ${maxBytes} bytes.`);
    this.name = 'ArrowResponseTooLargeError';
  }
}

/** The bytes are not an Arrow IPC stream in the S2SP layout (README.md in this folder), or are cut short. */
export class ArrowDecodeError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ArrowDecodeError';
  }
}
