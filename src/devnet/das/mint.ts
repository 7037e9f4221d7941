/**
 * `mintCompressedNft` (deprecated, kept for the spec): its params checked, then a mint reserves the
 * next nonce of the current tree, derives the asset id PDA, builds MetadataArgs and the leaf, and
 * submits a real authority-signed transaction (chain/authority-tx.ts). The leaf enters the tree, and
 * the asset becomes visible, only when that transaction has executed successfully — the way an
 * indexer only sees what landed.
 */
import { encodeBase58 } from '../../solana/index.js';
import type { DasAssetRecord } from './asset.js';
import { assetIdPda, creatorHash, dataHashV1, leafHashV1, TokenStandard, type MetadataArgsV1, type MetadataCreator } from './leaf.js';
import { arr, b58, bool, int, invalid, obj, paramsObject, str, withSignal } from '../params/indexer.js';
import type { AuthorityTxSender } from '../chain/authority-tx.js';
import { currentTree, type DasIndex } from './trees.js';
import { DevnetRpcError } from '../types.js';

const MAX_CREATORS = 5;

export interface MintResult {
  signature: string;
  minted: boolean;
  assetId: string;
}

function parseMint(raw: unknown) {
  const p = paramsObject(raw, 'mintCompressedNft');
  const name = str(p.name, 'name', { required: true, maxBytes: 32 })!;
  const symbol = str(p.symbol, 'symbol', { required: true, maxBytes: 10 })!;
  const description = str(p.description, 'description', { required: true })!;
  const owner = b58(p.owner, 'owner');
  const delegate = p.delegate === undefined || p.delegate === null ? undefined : b58(p.delegate, 'delegate');
  const collection = p.collection === undefined || p.collection === null ? undefined : b58(p.collection, 'collection');
  const uri = str(p.uri, 'uri', { maxBytes: 200 }) ?? '';
  const imageUrl = str(p.imageUrl, 'imageUrl');
  const externalUrl = str(p.externalUrl, 'externalUrl');
  const sellerFeeBasisPoints = int(p.sellerFeeBasisPoints, 'sellerFeeBasisPoints', 0, 10_000) ?? 0;
  const attributes: { trait_type: string; value: string }[] = [];
  if (p.attributes !== undefined && p.attributes !== null) {
    arr(p.attributes, 'attributes').forEach((a, i) => {
      const o = obj(a, `attributes[${i}]`);
      if (!o) throw invalid(`attributes[${i}]`, 'expected an object {trait_type, value}');
      attributes.push({
        trait_type: str(o.trait_type, `attributes[${i}].trait_type`, { required: true })!,
        value: str(o.value, `attributes[${i}].value`, { required: true })!,
      });
    });
  }
  const creators: MetadataCreator[] = [];
  if (p.creators !== undefined && p.creators !== null) {
    const list = arr(p.creators, 'creators', { max: MAX_CREATORS });
    let sum = 0;
    const seen = new Set<string>();
    list.forEach((c, i) => {
      const o = obj(c, `creators[${i}]`);
      if (!o) throw invalid(`creators[${i}]`, 'expected an object {address, share}');
      const address = b58(o.address, `creators[${i}].address`);
      const share = int(o.share, `creators[${i}].share`, 0, 100);
      if (share === undefined) throw invalid(`creators[${i}].share`, 'is required');
      const key = o.address as string;
      if (seen.has(key)) throw invalid(`creators[${i}].address`, `duplicate creator ${key}`);
      seen.add(key);
      sum += share;
      creators.push({ address, verified: false, share });
    });
    if (list.length > 0 && sum !== 100) throw invalid('creators', `shares must sum to 100, got ${sum}`);
  }
  const confirmTransaction = bool(p.confirmTransaction, 'confirmTransaction') ?? false;
  return { name, symbol, description, owner, delegate, collection, uri, imageUrl, externalUrl, sellerFeeBasisPoints, attributes, creators, confirmTransaction };
}

export async function mintCompressedNft(ix: DasIndex, sender: AuthorityTxSender, raw: unknown, signal?: AbortSignal): Promise<MintResult> {
  const { chain } = ix;
  const p = parseMint(raw);
  const t = currentTree(ix);
  const nonce = t.nextNonce++;
  const idBytes = assetIdPda(t.bytes, BigInt(nonce));
  const id = encodeBase58(idBytes);
  const metadata: MetadataArgsV1 = {
    name: p.name,
    symbol: p.symbol,
    uri: p.uri,
    sellerFeeBasisPoints: p.sellerFeeBasisPoints,
    primarySaleHappened: false,
    isMutable: true,
    editionNonce: null,
    tokenStandard: TokenStandard.NonFungible,
    uses: null,
    tokenProgramVersion: 0,
    // The devnet authority stands in as every collection's authority, so collections are verified.
    collection: p.collection ? { verified: true, key: p.collection } : null,
    creators: p.creators,
  };
  const dataHash = dataHashV1(metadata);
  const cHash = creatorHash(p.creators);
  const delegateBytes = p.delegate ?? p.owner;
  const leaf = leafHashV1({ id: idBytes, owner: p.owner, delegate: delegateBytes, nonce: BigInt(nonce), dataHash, creatorHash: cHash });
  const ownerText = encodeBase58(p.owner);
  const delegateText = p.delegate ? encodeBase58(p.delegate) : null;
  const touched = [t.bytes, p.owner, idBytes, ...(p.collection ? [p.collection] : [])];
  const { signature, executed } = sender.send(touched);
  const applied = executed.then((tx) => {
    // A failed transaction mints nothing: its nonce stays an empty leaf (a gap), as a reserved
    // nonce cannot be handed to a later mint whose asset id was derived from another one.
    if (tx.err !== null) return tx;
    const { seq } = t.tree.set(nonce, leaf);
    const rec: DasAssetRecord = {
      id,
      idBytes,
      tree: t.address,
      nonce,
      owner: ownerText,
      delegate: delegateText === ownerText ? null : delegateText,
      metadata,
      description: p.description,
      attributes: p.attributes,
      imageUrl: p.imageUrl,
      externalUrl: p.externalUrl,
      collection: p.collection ? encodeBase58(p.collection) : undefined,
      authority: chain.authority.address,
      dataHash,
      creatorHash: cHash,
      leaf,
      seq,
      createdSlot: tx.slot,
      updatedSlot: tx.slot,
      order: ix.nextOrder++,
      signature,
      // Bubblegum's instruction names, as the indexer reports them per signature
      history: [{ signature, type: p.collection ? 'MintToCollectionV1' : 'MintV1', slot: tx.slot }],
    };
    ix.byId.set(id, rec);
    ix.inOrder.push(rec);
    return tx;
  });
  applied.catch(() => {});
  if (p.confirmTransaction) {
    const tx = await withSignal(applied, signal);
    if (tx.err !== null) {
      throw new DevnetRpcError(-32002, `mint transaction ${signature} failed: ${JSON.stringify(tx.err)}`, 200, { signature, err: tx.err });
    }
    // "Confirmed" means a later slot has been produced on top of the one it landed in.
    await chain.waitForSlot(tx.slot + 1, signal);
  }
  return { signature, minted: true, assetId: id };
}
