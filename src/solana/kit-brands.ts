/**
 * The address and signature types cairn returns, branded as `@solana/kit` 6 brands its own, so a
 * signer's `.address` or an outcome's `.signature` goes into a kit call without a cast. kit's brands
 * are string-keyed properties (`'__brand:@solana/kit': 'Address'`), not unique symbols — kit chose
 * that so that two copies of its packages interoperate — so declaring the same keys here makes
 * cairn's `Address` assignable to kit's `Address` without importing kit's types (kit is not a
 * dependency of cairn, and a consumer without it must still type-check). Both stay strings: code
 * that treats them as text is unchanged. Text cairn did not check itself (an indexer's answer) is
 * a plain `string`; `asAddress` checks it and brands it.
 */
import { toAddress, type AddressInput } from './inputs.js';

/** A base58 address checked by cairn; assignable to kit's `Address` (and to `string`). */
export type Address = string & { readonly '__brand:@solana/kit': 'Address'; readonly '__stringEncoding:@solana/kit': 'base58' };

/** A base58 transaction signature produced by cairn; assignable to kit's `Signature` (and to `string`). */
export type Signature = string & { readonly '__brand:@solana/kit': 'Signature'; readonly '__stringEncoding:@solana/kit': 'base58' };

/**
 * An address in any form cairn takes (base58 text, a web3.js `PublicKey`, a kit `Address`), checked
 * (32 bytes of base58) and typed as an `Address` a kit call takes. An `InputError` naming `field`
 * otherwise. For addresses in an RPC answer, which cairn passes on as the service wrote them.
 *
 * @example
 * const { items } = await client.getAssetsByOwner({ ownerAddress });
 * await rpc.getAccountInfo(asAddress(items[0].id)).send(); // rpc = kit's createSolanaRpc(url)
 */
export function asAddress(value: AddressInput, field = 'address'): Address {
  return toAddress(value, field) as Address;
}
