/**
 * The registry of verify kinds shared by the CLI, the verifier and the workers. A kind knows how to
 * find its items in whatever the service returned (main thread), what an item's id is, how to turn
 * one item into a compact record (main thread: the only place JSON is read), and how to verify a
 * record (worker: bytes only).
 *
 * Value problems in a field (bad base58, wrong length, a u64 out of range) make that item invalid with
 * a reason naming the field; an item that is not of the kind at all makes the input unusable.
 */
import { CairnError, ErrorCodes, InputError } from '../errors.js';
import { bad, type Verdict } from './verdict.js';
import { b58Field, ByteReader, ByteWriter, decodeBatch, FieldError, nodesField, unwrapItems, type KeyedItem } from './codec.js';
import { verifyAssetProof } from './asset.js';
import { verifyAssetLeaf } from './asset-leaf.js';
import {
  decodeAccountClaim,
  decodeAccountProof,
  encodeAccountClaim,
  encodeAccountProof,
  looksLikeAccount,
  looksLikeAccountProof,
  parseAccountProof,
  parseCompressedAccount,
  unwrapAccount,
  verifyAccountHash,
  verifyAccountProof,
} from './account.js';
import { decodeNewAddressProof, encodeNewAddressProof, looksLikeNewAddressProof, parseNewAddressProof, verifyNewAddressProof } from './address.js';

/** The kinds `cairn verify` and `createVerifier` understand. */
export const KIND_NAMES = ['asset-proof', 'asset-leaf', 'account-proof', 'account-hash', 'address-proof'] as const;
export type KindName = (typeof KIND_NAMES)[number];

export const isKindName = (k: string): k is KindName => (KIND_NAMES as readonly string[]).includes(k);

type Json = Record<string, unknown>;
const obj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** One verify kind. */
export interface KindSpec {
  readonly name: KindName;
  /** Items per batch sent to a worker: large for cheap checks, smaller for Poseidon paths. */
  readonly batchSize: number;
  /** Shape test: is this object one item of the kind? */
  looksLike(v: Json): boolean;
  /** Flatten a response (any envelope) into items. Throws `InputError` when nothing fits. */
  extract(input: unknown): KeyedItem[];
  /** A human id for an item (asset id, account hash, address). */
  id(item: unknown, key?: string): string | undefined;
  /** Item → record. Throws `FieldError` for a value problem in a field. */
  encode(item: unknown): Uint8Array;
  /** Record → verdict (in a worker). */
  verify(record: Uint8Array): Verdict;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Default extraction: unwrap envelopes, then check every item has the kind's shape. */
export function extractWith(spec: Pick<KindSpec, 'looksLike' | 'name'>, input: unknown): KeyedItem[] {
  const items = unwrapItems(input, (v) => spec.looksLike(v));
  items.forEach(({ item }, i) => {
    if (!obj(item) || !spec.looksLike(item)) {
      throw new InputError(`items[${i}]`, `not a ${spec.name} item (${obj(item) ? `keys: ${Object.keys(item).slice(0, 8).join(', ')}` : typeof item})`);
    }
  });
  return items;
}

const accountProof: KindSpec = {
  name: 'account-proof',
  batchSize: 32,
  looksLike: looksLikeAccountProof,
  extract(input) {
    return extractWith(this, input);
  },
  id: (item) => str((item as Json).hash),
  encode: (item) => encodeAccountProof(parseAccountProof(item)),
  verify: (rec) => verifyAccountProof(decodeAccountProof(rec)),
};

const accountHash: KindSpec = {
  name: 'account-hash',
  batchSize: 128,
  looksLike: looksLikeAccount,
  extract(input) {
    // getTransactionWithCompressionInfo: the accounts it closed and opened.
    let v = input;
    if (obj(v) && obj(v.result) && 'jsonrpc' in v) v = v.result;
    const info = obj(v) ? (v.compressionInfo ?? v.compression_info) : undefined;
    if (obj(info)) {
      const all = [...(Array.isArray(info.closedAccounts) ? info.closedAccounts : []), ...(Array.isArray(info.openedAccounts) ? info.openedAccounts : [])];
      return extractWith(this, all);
    }
    return extractWith(this, input);
  },
  id: (item) => str(unwrapAccount(item)?.account.hash),
  encode: (item) => encodeAccountClaim(parseCompressedAccount(item)),
  verify: (rec) => verifyAccountHash(decodeAccountClaim(rec)),
};

const addressProof: KindSpec = {
  name: 'address-proof',
  batchSize: 32,
  looksLike: looksLikeNewAddressProof,
  extract(input) {
    return extractWith(this, input);
  },
  id: (item) => str((item as Json).address),
  encode: (item) => encodeNewAddressProof(parseNewAddressProof(item)),
  verify: (rec) => verifyNewAddressProof(decodeNewAddressProof(rec)),
};

/** The mpl-bubblegum fixtures bundle `{assetId, getAsset, getAssetProof, …}`: take the named part. */
function bundled(input: unknown, part: 'getAsset' | 'getAssetProof'): KeyedItem[] | null {
  if (!obj(input) || !obj(input[part])) return null;
  const key = typeof input.assetId === 'string' ? input.assetId : undefined;
  return [{ item: input[part], ...(key === undefined ? {} : { key }) }];
}

const assetProofKind: KindSpec = {
  name: 'asset-proof',
  batchSize: 512,
  looksLike: (v) => Array.isArray(v.proof) && 'leaf' in v && 'node_index' in v && 'root' in v,
  extract(input) {
    return bundled(input, 'getAssetProof') ?? extractWith(this, input);
  },
  // getAssetProof does not echo the asset id; the batch key (or the leaf) names the item.
  id: (item, key) => key ?? str((item as Json).leaf),
  // Decoded here with the fast base58 path (asset.ts's parseAssetProof holds the same rules: 32-byte
  // root, leaf and nodes, at most 64 nodes, a positive node_index); the worker runs verifyAssetProof.
  encode(item) {
    const j = item as Json;
    const root = b58Field(j.root, 'root');
    const leaf = b58Field(j.leaf, 'leaf');
    if (Array.isArray(j.proof) && j.proof.length > 64) throw new FieldError('proof', `expected at most 64 nodes, got ${j.proof.length}`);
    const proof = nodesField(j.proof, 'proof');
    const ni = j.node_index;
    if (typeof ni !== 'number' || !Number.isSafeInteger(ni) || ni < 1) throw new FieldError('node_index', `expected a positive integer, got ${String(ni)}`);
    return new ByteWriter(80 + proof.length).u64(BigInt(ni)).bytes(root).bytes(leaf).u32(proof.length / 32).bytes(proof).finish();
  },
  verify(rec) {
    const r = new ByteReader(rec);
    const nodeIndex = Number(r.u64('node_index'));
    const root = r.bytes(32, 'root');
    const leaf = r.bytes(32, 'leaf');
    const proof = r.bytes(32 * r.u32('proof length'), 'proof');
    return verifyAssetProof({ nodeIndex, root, leaf, proof });
  },
};

const utf8 = new TextEncoder();
const utf8d = new TextDecoder();

const assetLeafKind: KindSpec = {
  name: 'asset-leaf',
  batchSize: 64,
  looksLike: (v) => obj(v.compression) && 'id' in v,
  extract(input) {
    return bundled(input, 'getAsset') ?? extractWith(this, input);
  },
  id: (item) => str((item as Json).id),
  // asset-leaf.ts reads the getAsset JSON itself (it tries several metadata variants), so the record
  // is the item re-serialised compactly; the costly part (PDA, keccak leaves) still runs in a worker.
  encode: (item) => utf8.encode(JSON.stringify(item)),
  verify: (rec) => verifyAssetLeaf(JSON.parse(utf8d.decode(rec)) as unknown),
};

/** Every kind by name. */
export const kinds: Record<KindName, KindSpec> = {
  'asset-proof': assetProofKind,
  'asset-leaf': assetLeafKind,
  'account-proof': accountProof,
  'account-hash': accountHash,
  'address-proof': addressProof,
};

/**
 * Look a kind up, with a typed error listing the known ones.
 *
 * @example
 * const items = getKind('account-proof').extract(rpcResponse); // [{ item }, …]
 */
export function getKind(name: string): KindSpec {
  if (!isKindName(name)) throw new InputError('kind', `unknown kind "${name}"; expected one of ${KIND_NAMES.join(', ')}`);
  return kinds[name];
}

/**
 * Encode one item on the main thread: the record, or (for a value problem) the verdict decided here.
 *
 * @example
 * const r = encodeItem(kinds['account-proof'], item); // { record } or { verdict }
 */
export function encodeItem(spec: KindSpec, item: unknown): { record: Uint8Array } | { verdict: Verdict } {
  try {
    return { record: spec.encode(item) };
  } catch (e) {
    if (e instanceof FieldError) return { verdict: bad(e.message) };
    throw e;
  }
}


/**
 * Verify one framed batch of records of `kind` (what a worker does; also the in-thread path).
 * Returns one validity byte per item and the verdicts that carry details.
 *
 * @example
 * const { valid } = verifyBatch('account-proof', encodeBatch(records));
 */
export function verifyBatch(kind: string, buf: ArrayBuffer): { valid: Uint8Array; extras: Array<[number, Verdict]> } {
  if (!isKindName(kind)) throw new CairnError(ErrorCodes.MERKLE_INVALID_INPUT, `unknown kind "${kind}"`, { context: { field: 'kind' } });
  const spec = kinds[kind];
  const records = decodeBatch(buf);
  const valid = new Uint8Array(records.length);
  const extras: Array<[number, Verdict]> = [];
  for (let i = 0; i < records.length; i++) {
    const rec = records[i]!;
    // An empty record was decided on the main thread (its field did not parse).
    if (rec.length === 0) continue;
    let v: Verdict;
    try {
      v = spec.verify(rec);
    } catch (e) {
      // A kernel rejecting an input (e.g. ≥ r) is an invalid item, not a failed batch.
      const msg = e instanceof Error ? e.message : String(e);
      v = { valid: false, reason: msg };
    }
    if (v.valid) valid[i] = 1;
    if (!v.valid || v.reason !== undefined || v.status !== undefined || v.computedRoot !== undefined) extras.push([i, v]);
  }
  return { valid, extras };
}
