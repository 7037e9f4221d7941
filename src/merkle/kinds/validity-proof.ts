/**
 * The `validity-proof` kind: `getValidityProof(V2)` answers, their Groth16 proof checked against
 * verifying-key sets (groth16/validity.ts). An item is the answer's value, or a bundle that carries what the
 * check needs beside it — `{ getValidityProof, keySets?, accounts?, accountProofs?, addressProofs?,
 * request? }` (keySets by name or in their stored form: a bundle crosses to a worker as JSON) — so a
 * pooled run can use other sets than the default (Light's) and cross-check accounts.
 *
 * The pairing code (mcl-wasm, the key tables) is loaded by `prepare()` on the thread that verifies,
 * never when this registry is imported: `import 'cairn-solana'` stays light. A batch's proofs are checked
 * together (one final exponentiation per batch, groth16/batch.ts).
 */
import { isPlainObject } from '../../assert.js';
import { CairnError, ErrorCodes } from '../../errors/index.js';
import type { Verdict } from '../verdict.js';
import { noteSlowPath } from '../../crypto/index.js';
import type { ValidityOptions } from '../groth16/validity-types.js';
import { extractWith, str } from './extract.js';
import { accountHashKind } from './account-hash.js';
import { accountProofKind } from './account-proof.js';
import { addressProofKind } from './address-proof.js';
import type { Json, KindSpec } from './spec.js';

type ValidityModule = typeof import('../groth16/validity.js');
let impl: ValidityModule | undefined;
let loading: Promise<void> | undefined;

/** A getValidityProof value, either shape (v1 parallel arrays, v2 accounts/addresses). */
const isValue = (v: Json): boolean => 'compressedProof' in v && (Array.isArray(v.roots) || Array.isArray(v.accounts) || Array.isArray(v.addresses));
const isBundle = (v: Json): boolean => 'getValidityProof' in v;

/** A bundle's fields as `ValidityOptions` (the rest of the object is the answer). */
function split(item: unknown): { value: unknown; opts: ValidityOptions } {
  if (!isPlainObject(item) || !isBundle(item)) return { value: item, opts: {} };
  const { getValidityProof, keySets, accounts, accountProofs, addressProofs, request } = item as Record<string, unknown>;
  const opts: Record<string, unknown> = {};
  if (keySets !== undefined) opts.keySets = keySets;
  if (accounts !== undefined) opts.accounts = accounts;
  if (accountProofs !== undefined) opts.accountProofs = accountProofs;
  if (addressProofs !== undefined) opts.addressProofs = addressProofs;
  if (request !== undefined) opts.request = request;
  return { value: getValidityProof, opts: opts as ValidityOptions };
}

/** Items of another kind, or null when `v` holds none. */
function itemsOf(spec: KindSpec, v: unknown): unknown[] | null {
  try {
    return spec.extract(v).map((x) => x.item);
  } catch {
    return null;
  }
}

/**
 * A bundle's cross-check fields as lists of items, whatever envelope they came in: `accounts` holding
 * account proofs become `accountProofs`; anything that is not of its kind is left as it is, for the
 * check to name.
 */
function crossCheckLists(rest: Record<string, unknown>): Record<string, unknown> {
  const out = { ...rest };
  if (rest.accounts !== undefined) {
    const proofs = itemsOf(accountProofKind, rest.accounts);
    if (proofs) {
      delete out.accounts;
      out.accountProofs = proofs;
    } else out.accounts = itemsOf(accountHashKind, rest.accounts) ?? rest.accounts;
  }
  if (rest.accountProofs !== undefined) out.accountProofs = itemsOf(accountProofKind, rest.accountProofs) ?? rest.accountProofs;
  if (rest.addressProofs !== undefined) out.addressProofs = itemsOf(addressProofKind, rest.addressProofs) ?? rest.addressProofs;
  return out;
}

function loaded(): ValidityModule {
  if (!impl) throw new CairnError(ErrorCodes.MERKLE_KERNEL_UNAVAILABLE, 'the validity-proof kind is not loaded on this thread (await its prepare() first)', { context: { kernel: 'groth16' } });
  return impl;
}

export const validityProofKind: KindSpec = {
  name: 'validity-proof',
  // ~1.3 ms per proof checked in a batch, ~4 ms alone (mcl-wasm, one core): 16 make a batch of 20–60 ms.
  batchSize: 16,
  recordBytes: 1200,
  looksLike: (v) => isValue(v) || isBundle(v),
  special: (input) => isPlainObject(input) && isBundle(input),
  extract(input) {
    if (!(isPlainObject(input) && isBundle(input))) return extractWith(this, input);
    // A bundle may hold many answers (a whole response, as `cairn verify --vk` wraps it): one bundle
    // per answer, each with the same key sets and cross-checks, these taken apart here once.
    const { getValidityProof, ...rest } = input;
    const extras = crossCheckLists(rest);
    const inner =
      isPlainObject(getValidityProof) && isValue(getValidityProof)
        ? [{ item: getValidityProof }]
        : extractWith({ name: this.name, looksLike: (v) => isValue(v) || isBundle(v) }, getValidityProof);
    return inner.map(({ item, key }) => ({
      item: isPlainObject(item) && isBundle(item) ? { ...extras, ...item } : { getValidityProof: item, ...extras },
      ...(key === undefined ? {} : { key }),
    }));
  },
  // The key of a keyed answer, else its first leaf (or address): what the answer proves.
  id(item, key) {
    if (key !== undefined) return key;
    const v = isPlainObject(item) && isBundle(item) ? item.getValidityProof : item;
    if (!isPlainObject(v)) return undefined;
    const first = (list: unknown, f: string): string | undefined => (Array.isArray(list) && isPlainObject(list[0]) ? str(list[0][f]) : undefined);
    return (Array.isArray(v.leaves) ? str(v.leaves[0]) : undefined) ?? first(v.accounts, 'hash') ?? first(v.addresses, 'address');
  },
  prepare() {
    loading ??= (async () => {
      const [validity, groth16] = await Promise.all([import('../groth16/validity.js'), import('../groth16/verify.js')]);
      // mcl when it loads here (≈ 3× the portable backend); the portable one otherwise, same answers.
      await groth16.initGroth16();
      impl = validity;
    })();
    return loading;
  },
  pack(item, w) {
    w.json(item);
  },
  verify(r) {
    const { value, opts } = split(r.json('item'));
    return loaded().verifyValidityProofSync(value, opts);
  },
  verifyMany(r, n, decode) {
    const v = loaded();
    const items = Array.from({ length: n }, (_, i) => decode(() => split(r.select(i).json('item'))));
    const ok = items.flatMap((x, i) => ('valid' in x ? [] : [i]));
    const out: Verdict[] = items.map((x) => ('valid' in x ? (x as Verdict) : { valid: false }));
    const parts = ok.map((i) => items[i] as { value: unknown; opts: ValidityOptions });
    let verdicts: Verdict[];
    try {
      // An item not usable at all (not an object, an unknown key-set name) gets its own verdict from
      // `decode`; the others are still checked together.
      verdicts = v.verifyValidityProofsGuarded(
        parts.map((p) => p.value),
        parts.map((p) => p.opts),
        decode,
      );
    } catch (e) {
      // The batch check itself failed (a kernel fault, a bug): each proof alone keeps the answers
      // right, at several times the cost, so it is counted and warned about, never quiet.
      noteSlowPath('groth16-batch-error', parts.length, e);
      verdicts = parts.map((p) => decode(() => v.verifyValidityProofSync(p.value, p.opts)));
    }
    ok.forEach((i, k) => (out[i] = verdicts[k]!));
    return out;
  },
};
