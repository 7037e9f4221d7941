/**
 * Compressed accounts and account proofs as packed records (what crosses to a worker). The packers
 * check, in the parsers' order (account-parse.ts), what the main thread can see at a glance (shapes,
 * numbers) and copy the base58 strings as they are; the workers decode them.
 * `unpack*(pack*(item))` equals `parse*(item)`, and a bad field gives the same reason.
 */
import { isPlainObject } from '../../assert.js';
import { u32Value, u64Value } from '../fields.js';
import type { BatchWriter } from '../records/batch-writer.js';
import type { RecordReader } from '../records/record-reader.js';
import type { AccountClaim, AccountProof, TreeType } from './account.js';
import { discriminatorValue, treeTypeField, unwrapAccount } from './account-parse.js';
import { FieldError } from '../../errors/index.js';

/**
 * Pack a `getCompressedAccountProof` value for a worker (`parseAccountProof`'s checks, in its order).
 *
 * @example
 * const w = new BatchWriter(1); w.begin(); packAccountProof(res.value, w);
 */
export function packAccountProof(item: unknown, w: BatchWriter): void {
  if (!isPlainObject(item)) throw new FieldError('proof', 'expected an object');
  const ctx = isPlainObject(item.treeContext) ? item.treeContext : isPlainObject(item.merkleContext) ? item.merkleContext : null;
  w.b58(item.hash, 'hash');
  w.b58(item.root, 'root');
  w.nodes(item.proof, 'proof');
  w.u32(u32Value(item.leafIndex, 'leafIndex'));
  w.u8(ctx && ctx.treeType !== undefined ? treeTypeField(ctx.treeType, 'treeContext.treeType') : 0);
  w.u8(item.proveByIndex === true ? 1 : 0);
}

/** The worker side of `packAccountProof`: decodes the fields (throws what `parseAccountProof` would). */
export function unpackAccountProof(r: RecordReader): AccountProof {
  const hash = r.b58('hash');
  const root = r.b58('root');
  const proof = r.nodes('proof');
  const leafIndex = r.u32('leafIndex');
  const tt = r.u8('treeType');
  const proveByIndex = r.u8('proveByIndex') === 1;
  return { hash, root, proof, leafIndex, ...(tt ? { treeType: tt as TreeType } : {}), proveByIndex };
}

/**
 * Pack a compressed account (any shape `parseCompressedAccount` takes) for a worker.
 *
 * @example
 * const w = new BatchWriter(1); w.begin(); packCompressedAccount(res.value.items[0], w);
 */
export function packCompressedAccount(item: unknown, w: BatchWriter): void {
  const u = unwrapAccount(item);
  if (!u) throw new FieldError('account', 'expected a compressed account with hash, owner, leafIndex');
  const a = u.account;
  const ctx = isPlainObject(a.merkleContext) ? a.merkleContext : null;
  w.b58(a.hash, 'hash');
  w.b58(a.owner, 'owner');
  w.u8(ctx ? 1 : 0);
  w.b58(ctx ? ctx.tree : a.tree, ctx ? 'merkleContext.tree' : 'tree');
  w.u32(u32Value(a.leafIndex, 'leafIndex'));
  w.u64(u64Value(a.lamports ?? 0, 'lamports'));
  if (a.address === null || a.address === undefined) w.none();
  else w.b58(a.address, 'address');
  w.u8(ctx && ctx.treeType !== undefined ? treeTypeField(ctx.treeType, 'merkleContext.treeType') : 0);
  if (a.data !== null && a.data !== undefined) {
    if (!isPlainObject(a.data)) throw new FieldError('data', 'expected an object or null');
    w.u8(1);
    w.u64(discriminatorValue(a.data.discriminator));
    w.b58(a.data.dataHash, 'data.dataHash');
  } else {
    w.u8(0);
  }
  const t = u.token;
  // A token account with extensions (tlv) hashes differently; only the plain v1 form is re-derived.
  if (t && (t.tlv === null || t.tlv === undefined)) {
    if (t.state !== 'initialized' && t.state !== 'frozen') throw new FieldError('tokenData.state', `expected "initialized" or "frozen", got ${String(t.state)}`);
    w.u8(t.state === 'frozen' ? 2 : 1);
    w.b58(t.mint, 'tokenData.mint');
    w.b58(t.owner, 'tokenData.owner');
    w.u64(u64Value(t.amount, 'tokenData.amount'));
    if (t.delegate === null || t.delegate === undefined) w.none();
    else w.b58(t.delegate, 'tokenData.delegate');
  } else {
    w.u8(0);
  }
  w.u8(a.proveByIndex === true ? 1 : 0);
}

/** The worker side of `packCompressedAccount` (throws what `parseCompressedAccount` would). */
export function unpackCompressedAccount(r: RecordReader): AccountClaim {
  const hash = r.b58('hash');
  const owner = r.b58('owner');
  const tree = r.b58(r.u8('context') === 1 ? 'merkleContext.tree' : 'tree');
  const leafIndex = r.u32('leafIndex');
  const lamports = r.u64('lamports');
  const address = r.optB58('address');
  const tt = r.u8('treeType');
  const out: AccountClaim = { hash, owner, tree, leafIndex, lamports, address, data: null, ...(tt ? { treeType: tt as TreeType } : {}) };
  if (r.u8('data') === 1) {
    // The JSON discriminator is the 8 bytes read as a little-endian u64: the record holds them so.
    const discriminator = r.u64Bytes('data.discriminator');
    out.data = { discriminator, dataHash: r.b58('data.dataHash') };
  }
  const token = r.u8('tokenData');
  if (token !== 0) {
    const mint = r.b58('tokenData.mint');
    const tokenOwner = r.b58('tokenData.owner');
    const amount = r.u64('tokenData.amount');
    out.token = { mint, owner: tokenOwner, amount, delegate: r.optB58('tokenData.delegate'), frozen: token === 2 };
  }
  if (r.u8('proveByIndex') === 1) out.proveByIndex = true;
  return out;
}
