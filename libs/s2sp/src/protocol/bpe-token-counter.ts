/** A tiktoken rank file (js-tiktoken ships them, e.g. `js-tiktoken/ranks/o200k_base`). */
export interface BytePairRanks {
  pat_str: string;
  bpe_ranks: string;
}

/**
 * Counts the tokens of a tiktoken byte-pair encoding: the same splitting (the encoding's pattern)
 * and merging (the adjacent pair of lowest rank first) as tiktoken, so the same counts, with
 * special-token markers in the text counted as the plain text they are.
 *
 * Why not js-tiktoken's encoder: it also keeps each token's bytes for decoding and builds its
 * tables through a few hundred thousand short-lived objects, which leaves about 120 MiB of RSS
 * held by a process that only counts. This keeps one map, the bytes of each token (as a latin1
 * string, one character per byte) to its rank: about 25 MiB.
 */
export class BpeTokenCounter {
  private readonly ranks = new Map<string, number>();
  private readonly pattern: RegExp;

  constructor(encoding: BytePairRanks) {
    // Each line: a marker, the rank of its first token, then base64 tokens of consecutive ranks.
    for (const line of encoding.bpe_ranks.split('\n')) {
      if (line === '') continue;
      const fields = line.split(' ');
      const firstRank = Number.parseInt(fields[1], 10);
      for (let index = 2; index < fields.length; index++)
        this.ranks.set(Buffer.from(fields[index], 'base64').toString('latin1'), firstRank + index - 2);
    }
    this.pattern = new RegExp(encoding.pat_str, 'gu');
  }

  count(text: string): number {
    let tokens = 0;
    for (const [piece] of text.matchAll(this.pattern)) {
      const bytes = Buffer.from(piece, 'utf8').toString('latin1');
      tokens += this.ranks.has(bytes) ? 1 : this.mergedLength(bytes);
    }
    return tokens;
  }

  /** How many tokens byte-pair merging leaves of `bytes` (a piece that is not one token). */
  private mergedLength(bytes: string): number {
    // boundaries[i]..boundaries[i + 1] is one part; every part starts as one byte.
    const boundaries = Array.from({ length: bytes.length + 1 }, (_, index) => index);
    while (boundaries.length > 2) {
      let lowest = -1;
      let lowestRank = Infinity;
      for (let index = 0; index < boundaries.length - 2; index++) {
        const rank = this.ranks.get(bytes.slice(boundaries[index], boundaries[index + 2]));
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
