/**
 * Light's v1 range check for non-inclusion: `AssertIsLess{A, B, N: 248}` proves A < B by decomposing
 * A + 2^248 − B into 248 bits, which succeeds exactly when 0 ≤ A + 2^248 − B < 2^248, i.e. A < B for
 * values below 2^248 (addresses are: they are truncated to 31 bytes). Equality fails: A + 2^248 − B
 * would be 2^248, one bit too wide. 248 variables and 249 constraints per comparison.
 */
import type { Cs } from '../r1cs.js';

/** Bits of Light's address range check. */
const RANGE_BITS = 248;

/**
 * Constrain a < b (both below 2^bits); while computing the witness, throws InputError(field) when not.
 *
 * @example
 * assertLess(cs, lowValue, value, 'nonInclusion[0].value'); // lowValue < value
 */
export function assertLess<S>(cs: Cs<S>, a: S, b: S, field: string, message = 'expected a < b', bits = RANGE_BITS): void {
  const shifted = cs.linear(
    [
      [a, 1n],
      [b, -1n],
    ],
    1n << BigInt(bits),
  );
  cs.toBits(shifted, bits, field, message);
}
