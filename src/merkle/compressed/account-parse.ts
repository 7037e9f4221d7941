/**
 * The JSON edge of compressed accounts: the indexer's account and account-proof shapes (v1 and v2,
 * bare or wrapped with token data) read into the bytes account.ts hashes and verifies. Every bad
 * field throws a FieldError naming it.
 */
import { isPlainObject } from '../../assert.js';
import { b58Field, nodesField, u32Field, u64Value, uintField } from '../fields.js';
import type { AccountClaim, AccountProof, TreeType } from './account.js';
import { FieldError } from '../../errors/index.js';

type Json = Record<string, unknown>;

/**
 * The JSON discriminator (8 bytes read as a LE u64). The V2 token discriminator `0,…,0,3` reads as
 * 3·2^56, beyond 2^53, and JSON.parse hands it over as a number: an integer number that large is
 * taken as the integer it is (its bytes go into the hash, so a rounded value cannot pass unnoticed).
 */
export function discriminatorValue(v: unknown): number | bigint {
  if (typeof v === 'number' && Number.isInteger(v) && v > Number.MAX_SAFE_INTEGER && v < 2 ** 64) return BigInt(v);
  return u64Value(v, 'data.discriminator');
}

export function treeTypeField(v: unknown, field: string): TreeType {
  const t = u32Field(v, field);
  if (t < 1 || t > 4) throw new FieldError(field, `expected 1–4, got ${t}`);
  return t as TreeType;
}

/** Descend the wrappers photon puts around an account (`{account}`, `{account: {account, nullifier}}`). */
export function unwrapAccount(item: unknown): { account: Json; token: Json | null } | null {
  let cur: unknown = item;
  let token: Json | null = null;
  for (let i = 0; i < 4 && isPlainObject(cur); i++) {
    const t = cur.tokenData ?? cur.optionalTokenData;
    if (isPlainObject(t)) token = t;
    if (typeof cur.hash === 'string' && 'owner' in cur && 'leafIndex' in cur) return { account: cur, token };
    cur = cur.account;
  }
  return null;
}

/** True for anything `parseCompressedAccount` accepts (shape only). */
export function looksLikeAccount(v: Json): boolean {
  return unwrapAccount(v) !== null;
}

/**
 * Parse a compressed account as the indexer returns it (top-level `tree`, or `merkleContext` with
 * `treeType`; bare, or wrapped with `tokenData`/`optionalTokenData`). Throws `FieldError`.
 *
 * @example
 * const claim = parseCompressedAccount(res.value.items[0]); // getCompressedTokenAccountsByOwner item
 * verifyAccountHash(claim).valid;
 */
export function parseCompressedAccount(item: unknown): AccountClaim {
  const u = unwrapAccount(item);
  if (!u) throw new FieldError('account', 'expected a compressed account with hash, owner, leafIndex');
  const a = u.account;
  const ctx = isPlainObject(a.merkleContext) ? a.merkleContext : null;
  const out: AccountClaim = {
    hash: b58Field(a.hash, 'hash'),
    owner: b58Field(a.owner, 'owner'),
    tree: b58Field(ctx ? ctx.tree : a.tree, ctx ? 'merkleContext.tree' : 'tree'),
    leafIndex: u32Field(a.leafIndex, 'leafIndex'),
    lamports: uintField(a.lamports ?? 0, 'lamports', 64),
    address: a.address === null || a.address === undefined ? null : b58Field(a.address, 'address'),
    data: null,
    ...(ctx && ctx.treeType !== undefined ? { treeType: treeTypeField(ctx.treeType, 'merkleContext.treeType') } : {}),
  };
  if (a.proveByIndex === true) out.proveByIndex = true;
  if (a.data !== null && a.data !== undefined) {
    if (!isPlainObject(a.data)) throw new FieldError('data', 'expected an object or null');
    const disc = new Uint8Array(8);
    new DataView(disc.buffer).setBigUint64(0, BigInt(discriminatorValue(a.data.discriminator)), true);
    out.data = { discriminator: disc, dataHash: b58Field(a.data.dataHash, 'data.dataHash') };
  }
  if (u.token) {
    const t = u.token;
    // A token account with extensions (tlv) hashes differently; only the plain v1 form is re-derived.
    if (t.tlv === null || t.tlv === undefined) {
      if (t.state !== 'initialized' && t.state !== 'frozen') throw new FieldError('tokenData.state', `expected "initialized" or "frozen", got ${String(t.state)}`);
      out.token = {
        mint: b58Field(t.mint, 'tokenData.mint'),
        owner: b58Field(t.owner, 'tokenData.owner'),
        amount: uintField(t.amount, 'tokenData.amount', 64),
        delegate: t.delegate === null || t.delegate === undefined ? null : b58Field(t.delegate, 'tokenData.delegate'),
        frozen: t.state === 'frozen',
      };
    }
  }
  return out;
}

/** True for anything shaped like a `getCompressedAccountProof` value. */
export function looksLikeAccountProof(v: Json): boolean {
  return Array.isArray(v.proof) && typeof v.hash === 'string' && 'leafIndex' in v && 'root' in v;
}

/**
 * Parse a `getCompressedAccountProof` value (v1 or v2 with `proveByIndex`/`treeContext`).
 *
 * @example
 * verifyAccountProof(parseAccountProof(res.value)).valid;
 */
export function parseAccountProof(item: unknown): AccountProof {
  if (!isPlainObject(item)) throw new FieldError('proof', 'expected an object');
  const ctx = isPlainObject(item.treeContext) ? item.treeContext : isPlainObject(item.merkleContext) ? item.merkleContext : null;
  return {
    hash: b58Field(item.hash, 'hash'),
    root: b58Field(item.root, 'root'),
    proof: nodesField(item.proof, 'proof'),
    leafIndex: u32Field(item.leafIndex, 'leafIndex'),
    ...(ctx && ctx.treeType !== undefined ? { treeType: treeTypeField(ctx.treeType, 'treeContext.treeType') } : {}),
    proveByIndex: item.proveByIndex === true,
  };
}
