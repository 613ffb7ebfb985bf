/**
 * A tiktoken rank file (js-tiktoken ships them, e.g. `js-tiktoken/ranks/o200k_base`).
 * @internal
 */
export interface BytePairRanks {
  pat_str: string;
  bpe_ranks: string;
}

const EMPTY_SLOT = -1;

/**
 * Counts the tokens of a tiktoken byte-pair encoding: the same splitting (the encoding's pattern)
 * and merging (the adjacent pair of lowest rank first) as tiktoken, so the same counts, with
 * special-token markers in the text counted as the plain text they are.
 *
 * Why not js-tiktoken's encoder: it also keeps each token's bytes for decoding and builds its
 * tables through a few hundred thousand short-lived objects, which leaves about 120 MiB of RSS
 * held by a process that only counts. A map from each token's bytes (as strings) to its rank
 * still held about 25 MiB of heap for o200k's 200,000 tokens; this keeps the same table in typed
 * arrays (the tokens' bytes end to end, where each starts, an open-addressing hash index, and each
 * token's rank unless, as in o200k, the ranks are the tokens' order), about 4 MiB, outside the
 * garbage collector's way.
 * @internal
 */
export class BpeTokenCounter {
  private readonly tokenBytes: Uint8Array;
  /** Token i's bytes are tokenBytes[tokenStarts[i]] up to tokenStarts[i + 1]. */
  private readonly tokenStarts: Uint32Array;
  /** Token i's rank; undefined when every token's rank is its number i. */
  private readonly tokenRanks: Int32Array | undefined;
  /** Hash index: a token's number, or EMPTY_SLOT; linear probing. */
  private readonly slots: Int32Array;
  private readonly slotMask: number;
  private readonly pattern: RegExp;
  private pieceBytes = Buffer.alloc(1024);

  constructor(encoding: BytePairRanks) {
    // Read straight from the rank file's characters: splitting it into 200,000 strings made the
    // garbage collector grow its young generation to its maximum, and keep it, in every process.
    const ranks = encoding.bpe_ranks;
    let tokenCount = 0;
    let byteLength = 0;
    let ranksInOrder = true;
    forEachToken(ranks, (start, end, rank) => {
      ranksInOrder &&= rank === tokenCount;
      tokenCount++;
      byteLength += decodedLength(ranks, start, end);
    });
    this.tokenBytes = new Uint8Array(byteLength);
    this.tokenStarts = new Uint32Array(tokenCount + 1);
    const tokenRanks = ranksInOrder ? undefined : new Int32Array(tokenCount);
    let token = 0;
    let length = 0;
    forEachToken(ranks, (start, end, rank) => {
      this.tokenStarts[token] = length;
      length = decodeBase64(ranks, start, end, this.tokenBytes, length);
      if (tokenRanks) tokenRanks[token] = rank;
      token++;
    });
    this.tokenStarts[token] = length;
    this.tokenRanks = tokenRanks;

    let slotCount = 1;
    while (slotCount < tokenCount * 2) slotCount *= 2;
    this.slots = new Int32Array(slotCount).fill(EMPTY_SLOT);
    this.slotMask = slotCount - 1;
    for (let each = 0; each < tokenCount; each++) {
      let slot = hashBytes(this.tokenBytes, this.tokenStarts[each], this.tokenStarts[each + 1]) & this.slotMask;
      while (this.slots[slot] !== EMPTY_SLOT) slot = (slot + 1) & this.slotMask;
      this.slots[slot] = each;
    }
    this.pattern = new RegExp(encoding.pat_str, 'gu');
  }

  count(text: string): number {
    let tokens = 0;
    for (const [piece] of text.matchAll(this.pattern)) {
      const length = this.encodePiece(piece);
      tokens += this.rankOf(0, length) !== undefined ? 1 : this.mergedLength(length);
    }
    return tokens;
  }

  /** Writes `piece` as UTF-8 into pieceBytes; its length in bytes. */
  private encodePiece(piece: string): number {
    const length = Buffer.byteLength(piece, 'utf8');
    if (length > this.pieceBytes.length) this.pieceBytes = Buffer.alloc(Math.max(length, this.pieceBytes.length * 2));
    return this.pieceBytes.write(piece, 0, 'utf8');
  }

  /** The rank of the token whose bytes are pieceBytes[start..end), if there is one. */
  private rankOf(start: number, end: number): number | undefined {
    const piece = this.pieceBytes;
    let slot = hashBytes(piece, start, end) & this.slotMask;
    for (let token = this.slots[slot]; token !== EMPTY_SLOT; token = this.slots[slot]) {
      if (this.tokenEquals(token, start, end)) return this.tokenRanks ? this.tokenRanks[token] : token;
      slot = (slot + 1) & this.slotMask;
    }
    return undefined;
  }

  private tokenEquals(token: number, start: number, end: number): boolean {
    const tokenStart = this.tokenStarts[token];
    if (this.tokenStarts[token + 1] - tokenStart !== end - start) return false;
    for (let offset = 0; offset < end - start; offset++)
      if (this.tokenBytes[tokenStart + offset] !== this.pieceBytes[start + offset]) return false;
    return true;
  }

  /** How many tokens byte-pair merging leaves of pieceBytes[0..length) (a piece that is not one token). */
  private mergedLength(length: number): number {
    // boundaries[i]..boundaries[i + 1] is one part; every part starts as one byte.
    const boundaries = Array.from({ length: length + 1 }, (_, index) => index);
    while (boundaries.length > 2) {
      let lowest = -1;
      let lowestRank = Infinity;
      for (let index = 0; index < boundaries.length - 2; index++) {
        const rank = this.rankOf(boundaries[index], boundaries[index + 2]);
        if (rank !== undefined && rank < lowestRank) {
          lowestRank = rank;
          lowest = index;
        }
      }
      if (lowest === -1) break;
      boundaries.splice(lowest + 1, 1);
    }
    return boundaries.length - 1;
  }
}

/** FNV-1a over bytes[start..end). */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let index = start; index < end; index++) hash = Math.imul(hash ^ bytes[index], 0x01000193);
  return hash >>> 0;
}

const SPACE = 0x20;
const DIGIT_ZERO = 0x30;

/**
 * Calls `onToken` with the bounds of each base64 token in a rank file and its rank. Each line:
 * a marker, the rank of its first token, then the base64 tokens of consecutive ranks, separated
 * by single spaces.
 */
function forEachToken(ranks: string, onToken: (start: number, end: number, rank: number) => void): void {
  let position = 0;
  while (position < ranks.length) {
    let lineEnd = ranks.indexOf('\n', position);
    if (lineEnd === -1) lineEnd = ranks.length;
    const markerEnd = ranks.indexOf(' ', position);
    if (markerEnd !== -1 && markerEnd < lineEnd) {
      position = markerEnd + 1;
      let rank = 0;
      for (
        let code = ranks.charCodeAt(position);
        position < lineEnd && code !== SPACE;
        code = ranks.charCodeAt(++position)
      )
        rank = rank * 10 + (code - DIGIT_ZERO);
      while (position < lineEnd) {
        const start = position + 1;
        position = start;
        while (position < lineEnd && ranks.charCodeAt(position) !== SPACE) position++;
        onToken(start, position, rank++);
      }
    }
    position = lineEnd + 1;
  }
}

const BASE64_VALUES = (() => {
  const values = new Int8Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let index = 0; index < alphabet.length; index++) values[alphabet.charCodeAt(index)] = index;
  return values;
})();

/** How many bytes text[start..end) (base64, padded or not) decodes to. */
function decodedLength(text: string, start: number, end: number): number {
  let digits = end - start;
  while (digits > 0 && text.charCodeAt(start + digits - 1) === EQUALS_SIGN) digits--;
  return Math.floor((digits * 6) / 8);
}

const EQUALS_SIGN = 0x3d;

/** Decodes text[start..end) (base64, padded or not) into bytes from `offset`; the offset after the last byte. */
function decodeBase64(text: string, start: number, end: number, bytes: Uint8Array, offset: number): number {
  let bits = 0;
  let bitCount = 0;
  for (let position = start; position < end; position++) {
    const code = text.charCodeAt(position);
    const value = code < 128 ? BASE64_VALUES[code] : -1;
    if (value === -1) break;
    bits = ((bits << 6) | value) & 0xffffff;
    bitCount += 6;
    if (bitCount >= 8) {
      bitCount -= 8;
      bytes[offset++] = (bits >> bitCount) & 0xff;
    }
  }
  return offset;
}
