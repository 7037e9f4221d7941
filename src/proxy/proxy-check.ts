/**
 * What the verifying proxy checks in an answer: which JSON-RPC methods bear proofs, the kind of their
 * items, and the verdicts (self-consistency in the worker pool, then anchoring against the chain).
 * A validity proof is verified with the request beside it (it tells accounts from addresses) and the
 * key sets the proxy was given.
 */
import type { KindName } from '../merkle/kinds/index.js';
import type { Verdict } from '../merkle/verdict.js';
import type { Verifier } from '../merkle/verifier/types.js';

/** Proof-bearing methods and the kind of their items. */
export const PROOF_METHODS: Readonly<Record<string, KindName>> = {
  getAssetProof: 'asset-proof',
  getAssetProofBatch: 'asset-proof',
  getCompressedAccountProof: 'account-proof',
  getCompressedAccountProofV2: 'account-proof',
  getMultipleCompressedAccountProofs: 'account-proof',
  getMultipleCompressedAccountProofsV2: 'account-proof',
  getMultipleNewAddressProofs: 'address-proof',
  getMultipleNewAddressProofsV2: 'address-proof',
  getValidityProof: 'validity-proof',
  getValidityProofV2: 'validity-proof',
};

/** One item that failed, as the error's `data` names it. */
export interface FailedItem {
  /** The item's place in the answer (0 for a single-item answer). */
  index: number;
  /** Its id (asset id, account hash, address) when the kind names one. */
  id?: string;
  reason: string;
  status?: string;
}

export interface CheckResult {
  kind: KindName;
  items: number;
  failed: FailedItem[];
  /** True when every valid item's roots were found on chain. */
  anchored: boolean;
}

/**
 * Verify the items of one proof-bearing answer (`result`: the JSON-RPC result, parsed).
 *
 * @example
 * const r = await checkAnswer(verifier, 'getAssetProof', params, result, {});
 * if (r && r.failed.length) refuse(r);
 */
export async function checkAnswer(
  verifier: Verifier,
  method: string,
  params: unknown,
  result: unknown,
  opts: { keySets?: string[]; signal?: AbortSignal },
): Promise<CheckResult | null> {
  const kind = PROOF_METHODS[method];
  if (!kind || result === null || result === undefined) return null;
  let input: unknown = result;
  if (kind === 'validity-proof') {
    const value = isObj(result) && 'value' in result ? result.value : result;
    if (!isObj(value)) return null;
    const request = Array.isArray(params) ? params[0] : params;
    input = [
      {
        getValidityProof: value,
        ...(opts.keySets?.length ? { keySets: opts.keySets } : {}),
        ...(isObj(request) && (request.hashes || request.newAddressesWithTrees) ? { request } : {}),
      },
    ];
  }
  // A keyed batch (getAssetProofBatch) may hold nulls: ids the indexer knows nothing of are not lies.
  if (kind === 'asset-proof' && isObj(result) && !('root' in result)) {
    const kept = Object.fromEntries(Object.entries(result).filter(([, v]) => v !== null));
    if (Object.keys(kept).length === 0) return null;
    input = kept;
  }
  const verdicts: Verdict[] = await verifier.verify(kind, input, opts.signal ? { signal: opts.signal } : {});
  const failed: FailedItem[] = [];
  let anchored = verdicts.length > 0;
  verdicts.forEach((v, index) => {
    // A v2 account still in the output queue is proven by index, not by a path: not a lie, not anchored.
    if (!v.valid && v.status === 'prove-by-index') anchored = false;
    else if (!v.valid) failed.push({ index, ...(v.id === undefined ? {} : { id: v.id }), reason: v.reason ?? 'invalid', ...(v.status === undefined ? {} : { status: v.status }) });
    if (v.anchored !== true) anchored = false;
  });
  return { kind, items: verdicts.length, failed, anchored };
}

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
