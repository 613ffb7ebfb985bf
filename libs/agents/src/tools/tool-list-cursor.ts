import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { decodeOpaqueCursor, encodeOpaqueCursor } from '../common/opaque-cursor';
import { InvalidRequestError } from '../common/request-errors';

/** Where a ListTools page ends: an offset into one version of the registry, for one server filter. */
export interface ToolListPosition {
  offset: number;
  registryVersion: number;
  /** The server filter the listing was made with ('' = all servers). */
  server: string;
}

const MAX_CURSOR_LENGTH = 512;
const MAC_BYTES = 16;

/**
 * Opaque ListTools cursors: base64url of {o: offset, v: registry version,
 * s: server filter, m: MAC}. The MAC (HMAC-SHA256 with a key drawn at start)
 * makes a modified cursor, or one from another agents process, fail with a
 * clear INVALID_ARGUMENT instead of silently skipping or repeating tools; a
 * cursor from an older registry version is refused because the list it
 * paged through no longer exists.
 */
export class ToolListCursorCodec {
  constructor(private readonly key: Buffer = randomBytes(32)) {}

  encode(position: ToolListPosition): string {
    const body = { o: position.offset, v: position.registryVersion, s: position.server };
    return encodeOpaqueCursor({ ...body, m: this.mac(body) });
  }

  /** The position a cursor encodes, checked against the current registry version and filter. */
  decode(cursor: string, expected: { registryVersion: number; server: string }): ToolListPosition {
    const position = this.parse(cursor);
    if (position.server !== expected.server) {
      throw new InvalidRequestError(
        'cursor',
        `the cursor was issued for server filter "${position.server}" but this request filters "${expected.server}"; repeat the same filter or start again with an empty cursor`,
      );
    }
    if (position.registryVersion !== expected.registryVersion) {
      throw new InvalidRequestError(
        'cursor',
        `the cursor belongs to tool registry version ${position.registryVersion}, but the tools changed since (now version ${expected.registryVersion}); list again from an empty cursor`,
      );
    }
    return position;
  }

  private parse(cursor: string): ToolListPosition {
    const invalid = () =>
      new InvalidRequestError(
        'cursor',
        'not a cursor issued by this agents service (malformed or modified); start again with an empty cursor',
      );
    const { o, v, s, m } = decodeOpaqueCursor(cursor, MAX_CURSOR_LENGTH, invalid);
    if (
      !Number.isSafeInteger(o) ||
      (o as number) < 0 ||
      !Number.isSafeInteger(v) ||
      typeof s !== 'string' ||
      typeof m !== 'string'
    ) {
      throw invalid();
    }
    const expectedMac = Buffer.from(this.mac({ o: o as number, v: v as number, s }), 'base64url');
    const givenMac = Buffer.from(m, 'base64url');
    if (givenMac.length !== expectedMac.length || !timingSafeEqual(givenMac, expectedMac)) throw invalid();
    return { offset: o as number, registryVersion: v as number, server: s };
  }

  private mac(body: { o: number; v: number; s: string }): string {
    return createHmac('sha256', this.key)
      .update(`${body.o}\n${body.v}\n${body.s}`)
      .digest()
      .subarray(0, MAC_BYTES)
      .toString('base64url');
  }
}
