/**
 * The legacy token-metadata lookup (`POST /v0/token-metadata`, deprecated by the service in favour
 * of the DAS asset queries) for the assets the devnet knows: compressed NFTs minted through the
 * DAS state (on-chain metadata from the MetadataArgs of the leaf; off-chain metadata from what the
 * mint was given, since that is the JSON its `uri` stands for) and plain SPL mints that exist on the
 * chain (`onChainAccountInfo` parsed from the mint account). Every section carries its `error`
 * string, empty when that section is fine, as the spec describes. The server warns nobody: the
 * deprecation notice is the client's job.
 */
import { encodeBase58, base58Bytes } from '../../../solana/index.js';
import { isPlainObject } from '../../../assert.js';
import { base58TooLong } from '../../../base58-bound.js';
import type { DevnetChain } from '../../chain/contract.js';
import type { DasState } from '../../das/state.js';
import { DevnetRpcError, type DevnetModule, type RestRequest } from '../../types.js';
import { TOKEN_PROGRAM } from './wallet-transfers.js';

const MAX_MINT_ACCOUNTS = 100;
const TOKEN_STANDARDS = ['NonFungible', 'FungibleAsset', 'Fungible', 'NonFungibleEdition'];

const badRequest = (field: string, message: string) => new DevnetRpcError(-32602, `"${field}": ${message}`, 400);

function mintAccountInfo(chain: DevnetChain, mint: string): { accountInfo: unknown; error: string } {
  const a = chain.account(mint);
  if (!a) return { accountInfo: null, error: 'EMPTY_ACCOUNT' };
  if (a.owner !== TOKEN_PROGRAM || a.data.length < 82) {
    return { accountInfo: null, error: 'NOT_A_TOKEN_MINT' };
  }
  const d = a.data;
  const view = new DataView(d.buffer, d.byteOffset, d.byteLength);
  const hasMintAuthority = view.getUint32(0, true) === 1;
  const hasFreezeAuthority = view.getUint32(46, true) === 1;
  return {
    accountInfo: {
      key: mint,
      isSigner: false,
      isWritable: false,
      lamports: Number(a.lamports),
      data: {
        parsed: {
          info: {
            decimals: d[44]!,
            freezeAuthority: hasFreezeAuthority ? encodeBase58(d.subarray(50, 82)) : '',
            isInitialized: d[45] === 1,
            mintAuthority: hasMintAuthority ? encodeBase58(d.subarray(4, 36)) : '',
            supply: view.getBigUint64(36, true).toString(),
          },
          type: 'mint',
        },
        program: 'spl-token',
        space: a.space,
      },
      owner: a.owner,
      executable: a.executable,
      rentEpoch: 0,
    },
    error: '',
  };
}

/**
 * The token-metadata module. `das` is read lazily: the DAS state may load after this module.
 *
 * @example
 * const tm = createTokenMetadata({ chain, das: () => dasState });
 * // POST /v0/token-metadata { mintAccounts: [assetId], includeOffChain: true }
 */
export function createTokenMetadata({ chain, das }: { chain: DevnetChain; das: () => DasState | null }): DevnetModule {
  const lookup = (req: RestRequest) => {
    const body = req.body as Record<string, unknown> | null;
    if (!isPlainObject(body)) throw badRequest('body', 'expected a JSON object');
    const { mintAccounts, includeOffChain = false, disableCache = false } = body;
    if (!Array.isArray(mintAccounts)) throw badRequest('mintAccounts', 'expected an array of mint addresses');
    if (mintAccounts.length === 0) throw badRequest('mintAccounts', 'expected at least one mint address');
    if (mintAccounts.length > MAX_MINT_ACCOUNTS) {
      throw badRequest('mintAccounts', `at most ${MAX_MINT_ACCOUNTS} items, got ${mintAccounts.length}`);
    }
    if (typeof includeOffChain !== 'boolean') throw badRequest('includeOffChain', 'expected a boolean');
    if (typeof disableCache !== 'boolean') throw badRequest('disableCache', 'expected a boolean');
    mintAccounts.forEach((m, i) => {
      let ok = typeof m === 'string' && !base58TooLong(m, 32);
      if (ok) {
        try {
          ok = base58Bytes(m as string).length === 32;
        } catch {
          ok = false;
        }
      }
      if (!ok) throw badRequest(`mintAccounts[${i}]`, `expected a base58 address, got ${JSON.stringify(m)}`);
    });
    const state = das();
    return (mintAccounts as string[]).map((mint) => {
      const rec = state?.record(mint) ?? null;
      const accountInfo = mintAccountInfo(chain, mint);
      if (!rec) {
        return {
          account: mint,
          onChainAccountInfo: accountInfo,
          onChainMetadata: { metadata: null, error: 'EMPTY_ACCOUNT' },
          offChainMetadata: { metadata: null, uri: '', error: includeOffChain ? 'EMPTY_ACCOUNT' : '' },
          legacyMetadata: null,
        };
      }
      const m = rec.metadata;
      const creators = m.creators.map((c) => ({ address: encodeBase58(c.address), share: String(c.share), verified: c.verified }));
      const image = rec.imageUrl ?? '';
      return {
        account: mint,
        // A compressed NFT has no mint account: the section says so, the metadata below still stands.
        onChainAccountInfo: accountInfo,
        onChainMetadata: {
          metadata: {
            key: 'MetadataV1',
            mint,
            updateAuthority: rec.authority,
            data: { name: m.name, symbol: m.symbol, uri: m.uri, sellerFeeBasisPoints: m.sellerFeeBasisPoints, creators },
            tokenStandard: m.tokenStandard === null ? '' : (TOKEN_STANDARDS[m.tokenStandard] ?? ''),
            primarySaleHappened: m.primarySaleHappened,
            isMutable: m.isMutable,
            editionNonce: m.editionNonce ?? 0,
            collection: m.collection ? { key: encodeBase58(m.collection.key), verified: m.collection.verified } : null,
            collectionDetails: null,
            uses: null,
          },
          error: '',
        },
        offChainMetadata: includeOffChain
          ? {
              metadata: {
                name: m.name,
                symbol: m.symbol,
                description: rec.description,
                attributes: rec.attributes.map((a) => ({ traitType: a.trait_type, value: a.value })),
                sellerFeeBasisPoints: m.sellerFeeBasisPoints,
                image,
                ...(rec.externalUrl ? { external_url: rec.externalUrl } : {}),
                properties: {
                  category: 'image',
                  files: image ? [{ uri: image, type: 'image/png' }] : [],
                  creators: creators.map((c) => ({ address: c.address, share: c.share })),
                },
              },
              uri: m.uri,
              error: '',
            }
          : { metadata: null, uri: m.uri, error: '' },
        legacyMetadata: null,
      };
    });
  };
  return { methods: {}, routes: { 'POST /v0/token-metadata': lookup } };
}
