/** An Arrow bitmap (least significant bit first) with every bit initially 0. */
export class Bitmap {
  readonly bytes: Uint8Array;
  private setBits = 0;

  constructor(readonly length: number) {
    this.bytes = new Uint8Array(Math.ceil(length / 8));
  }

  set(index: number): void {
    this.bytes[index >> 3] |= 1 << (index & 7);
    this.setBits += 1;
  }

  get unsetCount(): number {
    return this.length - this.setBits;
  }
}

/** Bit `index` of an Arrow bitmap whose first bit is at `bitOffset`. */
export function bitAt(bytes: Uint8Array, bitOffset: number, index: number): boolean {
  const position = bitOffset + index;
  return ((bytes[position >> 3] >> (position & 7)) & 1) === 1;
}
