import { hash53 } from "./hash.js";

/**
 * The tool-use ids of records the bounded buffer let go, as a Bloom filter of 8,192 bits (256 words of 32 bits, plain
 * JSON numbers), 4 probes per id. It answers "was this id ever evicted?" with no false negative: an id it does not
 * hold was not. So a caller asking whether a call is recorded in the session needs the denial store only for an id the
 * filter may hold, not for every id missing from the buffer (a long session's reconcile would otherwise open the store
 * at every turn). False positives only send a caller to the store: about 1 in 200,000 after 100 evictions, 1 in 45
 * after 1,000, 1 in 3 after 3,000.
 */
const WORDS = 256;
const BITS = WORDS * 32;
const PROBES = 4;

/** Whether `id` may be among the evicted ids (false: it certainly is not). */
export function mayHoldId(filter: readonly number[], id: string): boolean {
  const [first, second] = hashes(id);
  for (let probe = 0; probe < PROBES; probe++) {
    const bit = (first + probe * second) % BITS;
    if (((filter[bit >>> 5] ?? 0) & (1 << (bit & 31))) === 0) return false;
  }
  return true;
}

/** A new filter: `filter` (or an empty one) with `id` added; `filter` itself is left as it is (`step` never mutates). */
export function withId(filter: readonly number[] | undefined, id: string): number[] {
  return addId(filter === undefined ? new Array<number>(WORDS).fill(0) : [...filter], id);
}

/** Adds `id` to `filter` in place and returns it (a state its caller owns, `stepOwned`). */
export function addId(filter: number[], id: string): number[] {
  const [first, second] = hashes(id);
  for (let probe = 0; probe < PROBES; probe++) {
    const bit = (first + probe * second) % BITS;
    const word = bit >>> 5;
    filter[word] = ((filter[word] ?? 0) | (1 << (bit & 31))) >>> 0;
  }
  return filter;
}

/** Two hashes of `id` for double hashing, from its 53-bit hash (core/hash.ts): the low 32 bits, and the high 21 bits made odd. */
function hashes(id: string): [number, number] {
  const value = Number.parseInt(hash53(id), 16);
  return [value % 4294967296, Math.floor(value / 4294967296) * 2 + 1];
}
