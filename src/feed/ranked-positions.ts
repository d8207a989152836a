/**
 * A set of positions 0..size-1 that answers "how many are in before p" and
 * "which is the k-th" in O(log size) (a Fenwick tree of 0/1 counts). The
 * feed generator draws "the k-th still-free item of a list" with it, which a
 * filtered copy of the list per draw made quadratic in the range's length.
 */
export class RankedPositions {
  private readonly tree: Int32Array;
  private readonly present: Uint8Array;
  private highBit = 1;

  constructor(readonly size: number) {
    this.tree = new Int32Array(size + 1);
    this.present = new Uint8Array(size);
    while (this.highBit * 2 <= size) this.highBit *= 2;
  }

  /** Every position in, built in O(size). */
  static full(size: number): RankedPositions {
    const set = new RankedPositions(size);
    set.present.fill(1);
    for (let i = 1; i <= size; i++) {
      set.tree[i]! += 1;
      const parent = i + (i & -i);
      if (parent <= size) set.tree[parent]! += set.tree[i]!;
    }
    return set;
  }

  has(position: number): boolean {
    return this.present[position] === 1;
  }

  add(position: number): void {
    if (this.present[position] === 1) return;
    this.present[position] = 1;
    for (let i = position + 1; i <= this.size; i += i & -i) this.tree[i]! += 1;
  }

  delete(position: number): void {
    if (this.present[position] !== 1) return;
    this.present[position] = 0;
    for (let i = position + 1; i <= this.size; i += i & -i) this.tree[i]! -= 1;
  }

  /** How many positions in the set are below `position`. */
  before(position: number): number {
    let count = 0;
    for (let i = Math.min(position, this.size); i > 0; i -= i & -i) count += this.tree[i]!;
    return count;
  }

  get count(): number {
    return this.before(this.size);
  }

  /** The position of the k-th member (from 0), in increasing order; k must be below count. */
  nth(k: number): number {
    let position = 0;
    let left = k + 1;
    for (let step = this.highBit; step > 0; step >>= 1) {
      const next = position + step;
      if (next <= this.size && this.tree[next]! < left) {
        position = next;
        left -= this.tree[next]!;
      }
    }
    return position;
  }
}
