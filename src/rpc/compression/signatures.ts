/**
 * The compression indexer's signature lists beyond the spec's two (methods.ts has
 * `getLatestCompressionSignatures` and `getCompressionSignaturesForTokenOwner`): by account hash
 * (unpaged: an account is opened once and closed at most once), by address, by account owner, and
 * the latest non-vote transactions of the whole chain, each with the runtime's `error` text. Same
 * habits as the other compression modules: params checked before sending (an `InputError` naming
 * the field), the answer checked against its shape, `{context, value}` kept.
 *
 * `getLatestNonVotingSignatures` answers `{items}` without a cursor (as Photon does):
 * `client.paginate.getLatestNonVotingSignatures` builds the next page's cursor from the last item,
 * in Photon's format (`signatureCursor`).
 */
import { BadResponseError, ErrorCodes } from '../../errors/index.js';
import { base58Bytes, encodeBase58 } from '../../solana/index.js';
import { checkHashParams, checkPageParams, type CursorParams } from './params.js';
import * as CS from './shapes.js';
import type { ClientContext } from '../client/context.js';
import type { CallOptions } from '../jsonrpc.js';
import type * as T from '../types.js';

/**
 * The transactions that opened and closed the account with `hash`, newest first (the indexer
 * answers "not found" when there are none).
 *
 * @example
 * const { value } = await client.getCompressionSignaturesForAccount({ hash });
 */
export async function getCompressionSignaturesForAccount(
  ctx: ClientContext,
  params: { hash: string },
  opts?: CallOptions,
): Promise<T.WithContext<{ items: T.CompressionSignature[] }>> {
  return ctx.rpc.call({ method: 'getCompressionSignaturesForAccount', params: checkHashParams(params), validate: CS.signatureList }, opts);
}

/** One page of the transactions that opened or closed an account with `address`, newest first. */
export async function getCompressionSignaturesForAddress(
  ctx: ClientContext,
  params: CursorParams & { address: string },
  opts?: CallOptions,
): Promise<T.WithContext<T.CursorPage<T.CompressionSignature>>> {
  return ctx.rpc.call({ method: 'getCompressionSignaturesForAddress', params: checkPageParams(params, 'address'), validate: CS.signaturePage }, opts);
}

/**
 * One page of the transactions that opened or closed an account `owner` owns, newest first. A
 * compressed token account's owner here is the compressed-token program; for the token data's
 * owner use `getCompressionSignaturesForTokenOwner`.
 */
export async function getCompressionSignaturesForOwner(
  ctx: ClientContext,
  params: CursorParams & { owner: string },
  opts?: CallOptions,
): Promise<T.WithContext<T.CursorPage<T.CompressionSignature>>> {
  return ctx.rpc.call({ method: 'getCompressionSignaturesForOwner', params: checkPageParams(params, 'owner'), validate: CS.signaturePage }, opts);
}

/**
 * The latest transactions of the chain that are not votes, newest first, each with `error`: `null`
 * or the runtime's error text. No cursor comes back: `client.paginate.getLatestNonVotingSignatures`
 * pages through them (it builds each cursor from the page's last item).
 */
export async function getLatestNonVotingSignatures(
  ctx: ClientContext,
  params: CursorParams = {},
  opts?: CallOptions,
): Promise<T.WithContext<{ items: (T.CompressionSignature & { error: string | null })[] }>> {
  const r = await ctx.rpc.call({ method: 'getLatestNonVotingSignatures', params: checkPageParams(params), validate: CS.signatureWithErrorList }, opts);
  // Some servers leave out a null `error` (serde's skip_serializing_if): callers always get the field.
  return { ...r, value: { ...r.value, items: r.value.items.map((i) => ({ ...i, error: i.error ?? null })) } };
}

/**
 * The indexer's cursor after `item`: base58 of its slot (u64 little-endian) followed by its 64
 * signature bytes, which the indexer's signature lists page from. A signature that is not 64 bytes
 * of base58 is a bad response (`RPC_BAD_RESPONSE`), since `item` came from the server.
 *
 * @example
 * const next = signatureCursor(page.value.items.at(-1)!);
 */
export function signatureCursor(item: { slot: T.U64; signature: string }, method = 'getLatestNonVotingSignatures'): string {
  let sig: Uint8Array | undefined;
  try {
    sig = base58Bytes(item.signature);
  } catch {
    sig = undefined;
  }
  if (!sig || sig.length !== 64) {
    throw new BadResponseError(ErrorCodes.RPC_BAD_RESPONSE, `${method}: item signature ${JSON.stringify(String(item.signature).slice(0, 100))} is not 64 bytes of base58; cannot page after it`, {
      context: { method, path: 'items.signature' },
    });
  }
  const out = new Uint8Array(72);
  new DataView(out.buffer).setBigUint64(0, BigInt(item.slot), true);
  out.set(sig, 8);
  return encodeBase58(out);
}
