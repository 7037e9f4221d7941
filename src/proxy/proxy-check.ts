/**
 * What the verifying proxy checks in an answer: which JSON-RPC methods bear proofs, the kind of their
 * items, and the verdicts (self-consistency in the worker pool, then anchoring against the chain).
 * A validity proof is verified with the request beside it (it tells accounts from addresses) and the
 * key sets the proxy was given.
 */
import type { KindName, Verdict, Verifier } from '../merkle/index.js';
import { scanJson, type JsonTape, T_NULL, T_OBJECT } from '../json/index.js';
import { inspectScanned, type InspectedBody } from '../merkle/internal.js';

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

/** What a look at an answer's scan decides: pass it as it is, verify its result's bytes, or parse it (`checkAnswer`). */
export type AnswerLook = { pass: true } | { parse: true } | { result: InspectedBody; nulls: Uint8Array | null };

/** Keys whose meaning as an envelope (kinds/envelopes.ts) could make a keyed batch read apart from its parse. */
const ENVELOPE_KEYS = new Set(['jsonrpc', 'result', 'error', 'value', 'context', 'items']);
/** A key JS orders before the others (an array index), which `Object.entries` of the parse would move. */
const indexLike = (k: string): boolean => /^(?:0|[1-9]\d{0,9})$/.test(k) && Number(k) < 4294967295;

/**
 * Look at the answer to one call of a proof method (not `getValidityProof`, which `checkAnswer` reads
 * with its request) through its scan, without parsing it: no `result` (an error), or a null one,
 * passes as it is; else its result is what to verify (inspected on that one scan), with the null items of a keyed
 * `getAssetProofBatch` marked (an id the indexer knows nothing of is not a lie: `checkAnswer` leaves
 * them out). Anything the scan could read apart from `JSON.parse` (not JSON to the scanner, not an
 * object, a keyed batch with a key given twice, an index-like or envelope key) is `parse`: the
 * caller then takes `checkAnswer`'s path, so the verdicts and errors are always the parse's.
 *
 * @example
 * const look = lookAtAnswer(bytes, 'asset-proof');
 * if ('result' in look) await verifier.verify('asset-proof', look.result);
 */
export function lookAtAnswer(bytes: Uint8Array, kind: KindName): AnswerLook {
  let tape: JsonTape;
  try {
    tape = scanJson(bytes);
  } catch {
    return { parse: true };
  }
  // Handed on with the result (the verifier releases it), else released here.
  let kept = false;
  try {
    if (tape.type(0) !== T_OBJECT) return { parse: true };
    const r = tape.member(0, 'result');
    if (r < 0 || tape.type(r) === T_NULL) return { pass: true };
    let nulls: Uint8Array | null = null;
    if (kind === 'asset-proof' && tape.type(r) === T_OBJECT && tape.member(r, 'root') < 0) {
      const keys = tape.memberKeys(r);
      const seen = new Set<string>();
      let items = 0;
      for (let i = 0; i < keys.length; i++) {
        const k = tape.string(keys[i]!);
        if (seen.has(k) || indexLike(k) || ENVELOPE_KEYS.has(k)) return { parse: true };
        seen.add(k);
        if (tape.type(keys[i]! + 1) === T_NULL) (nulls ??= new Uint8Array(keys.length))[i] = 1;
        else items++;
      }
      if (items === 0) return { pass: true };
    }
    let result: InspectedBody;
    try {
      result = inspectScanned(kind, tape, r);
    } catch {
      // Not items of the kind: the parse's error says so.
      return { parse: true };
    }
    kept = true;
    return { result, nulls };
  } finally {
    if (!kept) tape.release();
  }
}

/**
 * `checkAnswer` for an answer looked at by `lookAtAnswer`: its result verified from the answer's bytes
 * and scan (the items decoded from the bytes, on the proxy's thread or the workers), the null items of a keyed batch left out as
 * `checkAnswer` leaves them out, so indices, counts and verdicts are the same.
 *
 * @example
 * const r = await checkResultBytes(verifier, 'getAssetProofBatch', look, {});
 */
export async function checkResultBytes(
  verifier: Verifier,
  method: string,
  look: { result: InspectedBody; nulls: Uint8Array | null },
  opts: { signal?: AbortSignal },
): Promise<CheckResult> {
  const kind = PROOF_METHODS[method]!;
  const verdicts: Verdict[] = await verifier.verify(kind, look.result, opts.signal ? { signal: opts.signal } : {});
  const { nulls } = look;
  const failed: FailedItem[] = [];
  let items = 0;
  let anchored = true;
  verdicts.forEach((v, i) => {
    if (nulls?.[i]) return;
    const index = items++;
    if (!v.valid && v.status === 'prove-by-index') anchored = false;
    else if (!v.valid) failed.push({ index, ...(v.id === undefined ? {} : { id: v.id }), reason: v.reason ?? 'invalid', ...(v.status === undefined ? {} : { status: v.status }) });
    if (v.anchored !== true) anchored = false;
  });
  return { kind, items, failed, anchored: anchored && items > 0 };
}
