/**
 * What every verifier returns. `valid` is the verdict; `reason` says why not (or why nothing could be
 * checked), in words a user can act on; `status` refines it for kinds with more than two outcomes
 * (asset leaves: "matches" / "mismatch" / "cannot-derive" / "no-leaf" / "redeemed"; anchoring:
 * "unknown-root" / "tree-not-found" / "not-a-tree").
 */
export interface Verdict {
  /** Identifier of the item (asset id, account hash, address), echoed from the input. */
  id?: string;
  valid: boolean;
  /** Why the item is invalid or could not be checked. Absent when valid. */
  reason?: string;
  /** Finer outcome where a kind has one. */
  status?: string;
  /** The root the path computed to, hex or base58 as the kind documents (for diagnostics). */
  computedRoot?: string;
  /**
   * Anchored verification only: true when every root the item rests on was found in its tree's root
   * history on chain; false when the verdict is invalid or could not be anchored. Absent: the
   * verdict was not anchored at all (self-consistency only).
   */
  anchored?: boolean;
  /** The slot the chain answered the tree read at, when anchored. */
  anchorSlot?: number;
}

export const ok = (id?: string, extra: Partial<Verdict> = {}): Verdict => ({ ...(id === undefined ? {} : { id }), valid: true, ...extra });
export const bad = (reason: string, id?: string, extra: Partial<Verdict> = {}): Verdict => ({
  ...(id === undefined ? {} : { id }),
  valid: false,
  reason,
  ...extra,
});
