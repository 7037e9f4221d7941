/**
 * The params checks every compression module shares (methods.ts, v2.ts, signatures.ts),
 * run before anything is sent: each throws an `InputError` naming the
 * field, so a method, its V2 form and its signature-list cousins refuse the same input with the same
 * message, and what goes on the wire is built in one place.
 */
import { assertAddress, assertArray, assertInt, assertObject, assertString, optional } from '../../assert.js';
import { InputError } from '../../errors/index.js';

/** Largest page the compression indexer serves. */
export const MAX_COMPRESSION_LIMIT = 1_000;

export interface CursorParams {
  cursor?: string;
  limit?: number;
}

/** A hash is 32 bytes in base58, so it has the shape of an address. */
export const assertHash: (field: string, x: unknown) => asserts x is string = assertAddress;

function checkCursor(p: CursorParams): void {
  optional('params.cursor', p.cursor, (f, x) => assertString(f, x, { nonEmpty: true }));
  optional('params.limit', p.limit, (f, x) => assertInt(f, x, 1, MAX_COMPRESSION_LIMIT));
}

/** `p` without its undefined fields: the params as sent. */
function clean<P extends object>(p: P): P {
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(p)) if (x !== undefined) out[k] = x;
  return out as P;
}

/**
 * The params of one page of a cursor-paged list, checked in this order: an object, `params[key]` an
 * address (no key for the lists over the whole chain), `params.mint` an address when present and
 * `mintFilter`, then `extra` (a list's own filters), cursor and limit. Returns them as sent.
 *
 * @example
 * ctx.rpc.call({ method, params: checkPageParams(params, 'owner', true), validate }, opts);
 */
export function checkPageParams<P extends CursorParams>(
  params: P,
  key?: 'owner' | 'delegate' | 'address' | 'mint',
  mintFilter = false,
  extra?: (p: P) => void,
): P {
  assertObject('params', params);
  if (key !== undefined) assertAddress(`params.${key}`, (params as Record<string, unknown>)[key]);
  if (mintFilter) optional('params.mint', (params as { mint?: unknown }).mint, assertAddress);
  extra?.(params);
  checkCursor(params);
  return clean(params);
}

/** `{hash}` of one account: an object whose `hash` is 32 bytes of base58. Returns what is sent. */
export function checkHashParams(params: { hash: string }): { hash: string } {
  assertObject('params', params);
  assertHash('params.hash', params.hash);
  return { hash: params.hash };
}

/** `{address}` or `{hash}` (at least one), both checked; both go on the wire, `null` where absent. */
export function checkAccountKey(params: { address?: string | null; hash?: string | null }): { address: string | null; hash: string | null } {
  assertObject('params', params);
  if (params.address != null) assertAddress('params.address', params.address);
  if (params.hash != null) assertHash('params.hash', params.hash);
  if (params.address == null && params.hash == null) throw new InputError('params', 'expected "address" or "hash"');
  return { address: params.address ?? null, hash: params.hash ?? null };
}

/** A list of `{address, tree}` (at least `min`), both addresses; returns copies holding only those two. */
export function checkAddressesWithTrees(field: string, list: unknown, min = 0): { address: string; tree: string }[] {
  assertArray<{ address: string; tree: string }>(
    field,
    list,
    (f, x) => {
      assertObject(f, x);
      assertAddress(`${f}.address`, x.address);
      assertAddress(`${f}.tree`, x.tree);
    },
    min,
  );
  return list.map(({ address, tree }) => ({ address, tree }));
}

/** A validity proof's `hashes` and `newAddressesWithTrees`: each may be left out, not both empty. */
export function checkValidityProofParams(params: { hashes?: string[]; newAddressesWithTrees?: { address: string; tree: string }[] }): {
  hashes: string[];
  newAddressesWithTrees: { address: string; tree: string }[];
} {
  assertObject('params', params);
  const hashes = params.hashes ?? [];
  assertArray('params.hashes', hashes, assertHash);
  const newAddressesWithTrees = checkAddressesWithTrees('params.newAddressesWithTrees', params.newAddressesWithTrees ?? []);
  if (hashes.length + newAddressesWithTrees.length === 0) throw new InputError('params.hashes', 'expected at least one hash or new address');
  return { hashes, newAddressesWithTrees };
}

/** A transaction with compression info as the spec names it: the indexer writes `compressionInfo`. */
export function withSpecCompressionInfo<R>(r: R): R {
  const raw = r as unknown as Record<string, unknown>;
  if (!('compression_info' in raw) && 'compressionInfo' in raw) {
    const { compressionInfo, ...rest } = raw;
    return { ...rest, compression_info: compressionInfo } as unknown as R;
  }
  return r;
}
