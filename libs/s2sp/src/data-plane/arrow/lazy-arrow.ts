// apache-arrow is about 150 modules; a process loads them when it first encodes or decodes an
// Arrow answer (a fetch asking for `application/vnd.apache.arrow.stream`), not at start-up.
import type * as DecodeModule from './decode-arrow-stream';
import type * as EncodeModule from './encode-arrow-stream';

/** decode-arrow-stream.ts, loaded on first use. */
export function arrowDecoder(): typeof DecodeModule {
  return require('./decode-arrow-stream') as typeof DecodeModule;
}

/** encode-arrow-stream.ts, loaded on first use. */
export function arrowEncoder(): typeof EncodeModule {
  return require('./encode-arrow-stream') as typeof EncodeModule;
}
