/**
 * The deprecated `mintCompressedNft` JSON-RPC method on the base host, params checked field by
 * field against the spec's table. It warns once per process; the zero-knowledge compression
 * methods replace it. (src/mint/ builds the verify-after-mint workflow on top of this call.)
 */
import { assertAddress, assertArray, assertBool, assertInt, assertObject, assertString, optional } from '../assert.js';
import { InputError } from '../errors/index.js';
import type { ClientContext } from './client/context.js';
import { warnDeprecatedOnce } from './deprecation.js';
import type { CallOptions } from './jsonrpc.js';
import * as S from './shapes.js';
import type * as T from './types.js';

export interface MintCompressedNftParams {
  name: string;
  symbol: string;
  description: string;
  /** Wallet receiving the NFT. */
  owner: string;
  delegate?: string;
  collection?: string;
  uri?: string;
  attributes?: { trait_type: string; value: string }[];
  imageUrl?: string;
  externalUrl?: string;
  /** Basis points, 100 = 1%. */
  sellerFeeBasisPoints?: number;
  creators?: { address: string; share: number }[];
  /** Wait for on-chain confirmation before the server answers. */
  confirmTransaction?: boolean;
}

export const MINT_DEPRECATION_CODE = 'CAIRN_DEP_MINT_COMPRESSED_NFT';
export const MINT_DEPRECATION_MESSAGE =
  'mintCompressedNft is deprecated; the zero-knowledge compression methods (getValidityProof, getCompressedAccount, compressed token accounts) replace it';

const KNOWN = new Set([
  'name', 'symbol', 'description', 'owner', 'delegate', 'collection', 'uri', 'attributes',
  'imageUrl', 'externalUrl', 'sellerFeeBasisPoints', 'creators', 'confirmTransaction',
]);

/** Check every field of the spec's table; unknown fields are refused (they would be ignored silently). */
function validateMintParams(params: MintCompressedNftParams): void {
  assertObject('params', params);
  for (const k of Object.keys(params)) if (!KNOWN.has(k)) throw new InputError(`params.${k}`, 'unknown field for mintCompressedNft');
  assertString('params.name', params.name, { nonEmpty: true });
  assertString('params.symbol', params.symbol);
  assertString('params.description', params.description);
  assertAddress('params.owner', params.owner);
  optional('params.delegate', params.delegate, assertAddress);
  optional('params.collection', params.collection, assertAddress);
  optional('params.uri', params.uri, (f, x) => assertString(f, x));
  optional('params.imageUrl', params.imageUrl, (f, x) => assertString(f, x));
  optional('params.externalUrl', params.externalUrl, (f, x) => assertString(f, x));
  optional('params.sellerFeeBasisPoints', params.sellerFeeBasisPoints, (f, x) => assertInt(f, x, 0, 10_000));
  optional('params.confirmTransaction', params.confirmTransaction, assertBool);
  optional('params.attributes', params.attributes, (f, x) =>
    assertArray(f, x, (g, a) => {
      assertObject(g, a);
      assertString(`${g}.trait_type`, a.trait_type);
      assertString(`${g}.value`, a.value);
    }),
  );
  optional('params.creators', params.creators, (f, x) => {
    assertArray(f, x, (g, c) => {
      assertObject(g, c);
      assertAddress(`${g}.address`, c.address);
      assertInt(`${g}.share`, c.share, 0, 100);
    });
    const total = (x as { share: number }[]).reduce((s, c) => s + c.share, 0);
    if ((x as unknown[]).length > 0 && total !== 100) throw new InputError(f, `expected shares summing to 100, got ${total}`);
  });
}

/**
 * Mint a compressed NFT through the deprecated method.
 *
 * @deprecated Use the zero-knowledge compression interface.
 * @example
 * const { assetId, signature } = await client.mintCompressedNft({ name: 'x', symbol: 'X', description: '', owner });
 */
export async function mintCompressedNft(ctx: ClientContext, params: MintCompressedNftParams, opts?: CallOptions): Promise<T.MintCompressedNftResult> {
  validateMintParams(params);
  warnDeprecatedOnce(MINT_DEPRECATION_CODE, MINT_DEPRECATION_MESSAGE, ctx.logger, ctx.deprecationWarnings !== false);
  return ctx.rpc.call({ method: 'mintCompressedNft', params, validate: S.mintResult }, opts);
}
