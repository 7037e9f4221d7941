/**
 * Asset leaves: every asset of the DAS indexer's integration snapshots (V1 and V2 leaf schemas,
 * delegated, frozen, burnt, collections, a decompressed asset, an empty page) and both
 * mpl-bubblegum assets are recomputed from their getAsset JSON; the builders are checked against
 * the vector's MetadataArgs and against @solana/web3.js for the asset PDA; and every field that
 * goes into the leaf is mutated to show the verdict turns to "mismatch".
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import fc from 'fast-check';
import { PublicKey } from '@solana/web3.js';
import { BUBBLEGUM_PROGRAM_ID, assetIdPda } from '../../src/merkle/cnft/bubblegum/asset-id.js';
import { TokenStandard, dataHashV1, type MetadataArgsV1 } from '../../src/merkle/cnft/bubblegum/metadata.js';
import { collectionHash, creatorHash, leafHashV1, leafHashV2 } from '../../src/merkle/cnft/bubblegum/leaf-hash.js';
import { verifyAssetLeaf } from '../../src/merkle/cnft/asset-leaf.js';
import { InputError } from '../../src/errors/index.js';
import { ASSET_LEAF_READS } from '../../src/merkle/cnft/asset-leaf.js';
import { BatchWriter } from '../../src/merkle/records/batch-writer.js';
import { RecordReader } from '../../src/merkle/records/record-reader.js';
import { decodeVerdict, packItem, verifyBatch } from '../../src/merkle/kinds/verify-batch.js';
import { kinds } from '../../src/merkle/kinds/index.js';

const dasDir = new URL('../vectors/das/', import.meta.url);
const das = readdirSync(dasDir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ file: f, json: JSON.parse(readFileSync(new URL(f, dasDir), 'utf8')) }));
const mpl = ['mpl_bubblegum_dasApi_3UowCweY_depth14_canopy9', 'mpl_bubblegum_dasApi_BZHZ4GX7_depth14_canopy0'].map((n) =>
  JSON.parse(readFileSync(new URL(`../vectors/bubblegum/${n}.json`, import.meta.url), 'utf8')),
);
const clone = <T>(x: T): T => structuredClone(x);
const compressedAssets = das.filter((d) => !d.json.items && d.json.compression.compressed).map((d) => ({ name: d.file, asset: d.json }));
const isV2 = (a: { compression: Record<string, unknown> }) => 'collection_hash' in a.compression;

describe('DAS integration snapshots', () => {
  it('cover V1 and V2 leaves, a delegate, a frozen and a burnt asset', () => {
    expect(compressedAssets.filter((a) => isV2(a.asset)).length).toBeGreaterThanOrEqual(5);
    expect(compressedAssets.filter((a) => !isV2(a.asset)).length).toBeGreaterThanOrEqual(5);
    expect(compressedAssets.some((a) => a.asset.ownership.delegate)).toBe(true);
    expect(compressedAssets.some((a) => a.asset.ownership.frozen)).toBe(true);
    expect(compressedAssets.some((a) => a.asset.burnt)).toBe(true);
  });

  for (const { name, asset } of compressedAssets) {
    it(`${name}: the recomputed leaf matches`, () => {
      expect(verifyAssetLeaf(asset)).toEqual({ id: asset.id, valid: true, status: 'matches' });
    });
  }

  it('a V2 asset is hashed with the V2 schema (the V1 hash of the same fields differs)', () => {
    for (const { asset } of compressedAssets.filter((a) => isV2(a.asset))) {
      const c = asset.compression;
      const owner = bs58.decode(asset.ownership.owner);
      const fields = {
        id: bs58.decode(asset.id),
        owner,
        delegate: asset.ownership.delegate ? bs58.decode(asset.ownership.delegate) : owner,
        nonce: BigInt(c.leaf_id),
        dataHash: bs58.decode(c.data_hash),
        creatorHash: bs58.decode(c.creator_hash),
      };
      expect(bs58.encode(leafHashV1(fields))).not.toBe(c.asset_hash);
      const v2 = leafHashV2({ ...fields, collectionHash: bs58.decode(c.collection_hash), assetDataHash: bs58.decode(c.asset_data_hash), flags: c.flags });
      expect(bs58.encode(v2)).toBe(c.asset_hash);
    }
  });

  it('a decompressed asset has no leaf: neither valid nor a mismatch', () => {
    const d = das.find((x) => x.file.includes('asset_decompress'))!.json;
    expect(verifyAssetLeaf(d)).toMatchObject({ id: d.id, valid: false, status: 'no-leaf' });
  });

  it('an empty page is not an asset (nothing to verify): the caller unwraps pages', () => {
    const page = das.find((x) => x.json.items)!.json;
    expect(page.items).toHaveLength(0);
    expect(() => verifyAssetLeaf(page)).toThrow(InputError);
  });
});

describe('mpl-bubblegum assets', () => {
  for (const v of mpl) {
    it(`${v.assetId}: leaf and proof verify together`, () => {
      expect(verifyAssetLeaf(v.getAsset, v.getAssetProof)).toEqual({ id: v.assetId, valid: true, status: 'matches' });
    });

    it(`${v.assetId}: the builders reproduce id, creator_hash and data_hash from MetadataArgs`, () => {
      const m = v.metadataArgs;
      const c = v.getAsset.compression;
      expect(bs58.encode(assetIdPda(bs58.decode(c.tree), BigInt(c.leaf_id)))).toBe(v.assetId);
      const creators = m.creators.map((x: { address: string; verified: boolean; share: number }) => ({ ...x, address: bs58.decode(x.address) }));
      expect(bs58.encode(creatorHash(creators))).toBe(c.creator_hash);
      const args: MetadataArgsV1 = {
        name: m.name,
        symbol: m.symbol,
        uri: m.uri,
        sellerFeeBasisPoints: m.sellerFeeBasisPoints,
        primarySaleHappened: m.primarySaleHappened,
        isMutable: m.isMutable,
        editionNonce: m.editionNonce,
        tokenStandard: TokenStandard[m.tokenStandard as keyof typeof TokenStandard],
        collection: m.collection ? { verified: m.collection.verified, key: bs58.decode(m.collection.key) } : null,
        uses: null,
        tokenProgramVersion: m.tokenProgramVersion === 'Original' ? 0 : 1,
        creators,
      };
      expect(bs58.encode(dataHashV1(args))).toBe(c.data_hash);
      expect(bs58.encode(dataHashV1({ ...args, isMutable: !args.isMutable }))).not.toBe(c.data_hash);
    });
  }

  it('a proof of another asset is a mismatch', () => {
    expect(verifyAssetLeaf(mpl[0].getAsset, mpl[1].getAssetProof)).toMatchObject({ valid: false, status: 'mismatch', reason: expect.stringMatching(/proof.leaf/) });
  });

  it('a proof that does not hold is a mismatch', () => {
    const p = clone(mpl[0].getAssetProof);
    p.proof[3] = p.proof[4];
    expect(verifyAssetLeaf(mpl[0].getAsset, p)).toMatchObject({ valid: false, status: 'mismatch', reason: expect.stringMatching(/walks up to/) });
  });
});

describe('assetIdPda', () => {
  it('agrees with @solana/web3.js findProgramAddressSync', () => {
    const program = new PublicKey(BUBBLEGUM_PROGRAM_ID);
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), (tree, nonce) => {
        const le = Buffer.alloc(8);
        le.writeBigUInt64LE(nonce);
        const [want] = PublicKey.findProgramAddressSync([Buffer.from('asset'), Buffer.from(tree), le], program);
        return bs58.encode(assetIdPda(tree, nonce)) === want.toBase58();
      }),
      { numRuns: 25 },
    );
  });

  it('rejects a nonce outside u64 and a tree that is not 32 bytes', () => {
    expect(() => assetIdPda(new Uint8Array(32), -1n)).toThrow(InputError);
    expect(() => assetIdPda(new Uint8Array(32), 2n ** 64n)).toThrow(InputError);
    expect(() => assetIdPda(new Uint8Array(31), 0n)).toThrow(InputError);
  });
});

describe('every leaf input, mutated, is a mismatch', () => {
  const other = '9r8QbojCUTjYdXekAcSvyC8M1ASH174W5wJqQGgHyVLq';
  type A = Record<string, any>;
  const mutations: [string, (a: A) => boolean][] = [
    ['owner', (a) => ((a.ownership.owner = other), true)],
    ['delegate', (a) => ((a.ownership.delegate = other), true)],
    ['leaf_id', (a) => ((a.compression.leaf_id += 1), true)],
    ['id', (a) => ((a.id = other), true)],
    ['tree', (a) => ((a.compression.tree = other), true)],
    ['data_hash', (a) => ((a.compression.data_hash = a.compression.creator_hash === a.compression.data_hash ? other : a.compression.creator_hash), true)],
    ['creator_hash', (a) => ((a.compression.creator_hash = other), true)],
    ['asset_hash', (a) => ((a.compression.asset_hash = other), true)],
    ['a creator share', (a) => a.creators.length > 0 && ((a.creators[0].share = (a.creators[0].share + 1) % 101), true)],
    ['a creator verified', (a) => a.creators.length > 0 && ((a.creators[0].verified = !a.creators[0].verified), true)],
    ['an extra creator', (a) => (a.creators.push({ address: other, share: 0, verified: false }), true)],
    ['flags', (a) => 'flags' in a.compression && ((a.compression.flags ^= 4), true)],
    ['frozen', (a) => 'flags' in a.compression && ((a.ownership.frozen = !a.ownership.frozen), true)],
    ['collection_hash', (a) => 'collection_hash' in a.compression && ((a.compression.collection_hash = other), true)],
    ['asset_data_hash', (a) => 'asset_data_hash' in a.compression && ((a.compression.asset_data_hash = other), true)],
    [
      'the V2 collection',
      (a) =>
        'collection_hash' in a.compression &&
        ((a.grouping = a.grouping.some((g: A) => g.group_key === 'collection') ? [] : [{ group_key: 'collection', group_value: other }]), true),
    ],
  ];
  const subjects = [...compressedAssets, ...mpl.map((v) => ({ name: v.assetId, asset: v.getAsset }))];
  for (const [what, mutate] of mutations) {
    it(what, () => {
      let tried = 0;
      for (const { name, asset } of subjects) {
        const a = clone(asset);
        if (!mutate(a)) continue;
        tried++;
        expect(verifyAssetLeaf(a), `${name} with another ${what}`).toMatchObject({ valid: false, status: 'mismatch' });
      }
      expect(tried).toBeGreaterThan(0);
    });
  }

  it('any single bit flipped in any 32-byte field or the nonce is invalid (property)', () => {
    // every base58 field that feeds the leaf, as [path getter, setter]
    const fields = (a: A): [string, () => string | null, (v: string) => void][] => [
      ['id', () => a.id, (v) => (a.id = v)],
      ['ownership.owner', () => a.ownership.owner, (v) => (a.ownership.owner = v)],
      ['ownership.delegate', () => a.ownership.delegate, (v) => (a.ownership.delegate = v)],
      ['compression.tree', () => a.compression.tree, (v) => (a.compression.tree = v)],
      ['compression.data_hash', () => a.compression.data_hash, (v) => (a.compression.data_hash = v)],
      ['compression.creator_hash', () => a.compression.creator_hash, (v) => (a.compression.creator_hash = v)],
      ['compression.asset_hash', () => a.compression.asset_hash, (v) => (a.compression.asset_hash = v)],
      ['compression.collection_hash', () => a.compression.collection_hash ?? null, (v) => (a.compression.collection_hash = v)],
      ['compression.asset_data_hash', () => a.compression.asset_data_hash ?? null, (v) => (a.compression.asset_data_hash = v)],
      ...a.creators.map((c: A, i: number): [string, () => string, (v: string) => void] => [`creators[${i}].address`, () => c.address, (v) => (c.address = v)]),
    ];
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.integer({ min: 0, max: 255 }), (si, fi, bit) => {
        const { name, asset } = subjects[si % subjects.length]!;
        const a = clone(asset);
        const live = fields(a).filter(([, get]) => typeof get() === 'string' && get() !== '');
        const [path, get, set] = live[fi % live.length]!;
        const bytes = bs58.decode(get()!);
        bytes[bit >> 3] ^= 1 << (bit & 7);
        set(bs58.encode(bytes));
        const v = verifyAssetLeaf(a);
        expect(v.valid, `${name}: bit ${bit} of ${path}`).toBe(false);
      }),
      { numRuns: 400 },
    );
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 0, max: 40 }), (si, bit) => {
        const a = clone(subjects[si % subjects.length]!.asset);
        const m = 2 ** bit; // arithmetic, not ^, which would truncate to 32 bits
        a.compression.leaf_id += Math.floor(a.compression.leaf_id / m) % 2 ? -m : m;
        expect(verifyAssetLeaf(a).valid).toBe(false);
      }),
      { numRuns: 100 },
    );
  });

  it('a field that does not decode is a mismatch naming the field', () => {
    const a = clone(mpl[1].getAsset);
    a.ownership.owner = 'not base58 0OIl';
    expect(verifyAssetLeaf(a)).toMatchObject({ valid: false, status: 'mismatch', reason: expect.stringContaining('"ownership.owner"') });
    const b = clone(mpl[1].getAsset);
    b.compression.leaf_id = -3;
    expect(verifyAssetLeaf(b).reason).toContain('"compression.leaf_id"');
  });

  it('input that is not an asset throws an InputError', () => {
    expect(() => verifyAssetLeaf(null)).toThrow(InputError);
    expect(() => verifyAssetLeaf({ id: 'x' })).toThrow(/compression/);
  });
});

describe('the worker pool packs only what the verifier reads (ASSET_LEAF_READS)', () => {
  type A = Record<string, any>;
  const other = '9r8QbojCUTjYdXekAcSvyC8M1ASH174W5wJqQGgHyVLq';
  const subjects = [...compressedAssets.map((a) => a.asset), ...mpl.map((v) => v.getAsset), ...das.filter((d) => !d.json.items).map((d) => d.json)];
  /** Value and shape changes: every read path gets a wrong type, an absence, a null somewhere. */
  const variants: [string, (a: A) => void][] = [
    ['as is', () => {}],
    ['owner changed', (a) => (a.ownership.owner = other)],
    ['name as a number', (a) => (a.content.metadata.name = 7)],
    ['metadata missing', (a) => delete a.content.metadata],
    ['content a string', (a) => (a.content = 'x')],
    ['creators an object', (a) => (a.creators = { 0: a.creators[0] })],
    ['creators with null', (a) => (a.creators = [null])],
    ['a creator share as a string', (a) => a.creators[0] && (a.creators[0].share = String(a.creators[0].share))],
    ['grouping an object', (a) => (a.grouping = { group_key: 'collection', group_value: other })],
    ['grouping with a verified flag', (a) => (a.grouping = [{ group_key: 'collection', group_value: other, verified: false }])],
    ['leaf_id as a decimal string', (a) => (a.compression.leaf_id = String(a.compression.leaf_id))],
    ['leaf_id above 2^53', (a) => (a.compression.leaf_id = '18446744073709551615')],
    ['leaf_id fractional', (a) => (a.compression.leaf_id = 1.5)],
    ['flags null', (a) => (a.compression.flags = null)],
    ['delegate null', (a) => (a.ownership.delegate = null)],
    ['ownership an array', (a) => (a.ownership = [a.ownership])],
    ['uses present', (a) => (a.uses = { use_method: 'Burn', remaining: 1, total: 2 })],
    ['uses with a nested object', (a) => (a.uses = { use_method: { x: 1 }, remaining: 1, total: 2 })],
    ['edition_nonce 3', (a) => (a.supply = { edition_nonce: 3 })],
    ['a name in UTF-8', (a) => (a.content.metadata.name = 'Żółw 🐢 #1')],
    ['compressed false', (a) => (a.compression.compressed = false)],
    ['mutable as a string', (a) => (a.mutable = 'true')],
    ['royalty basis points as a bigint', (a) => (a.royalty.basis_points = 500n)],
  ];

  const roundTrip = (asset: unknown): unknown => {
    const w = new BatchWriter(1);
    w.begin();
    w.projected(asset, ASSET_LEAF_READS);
    return new RecordReader(w.finish()).select(0).projected(ASSET_LEAF_READS, 'asset');
  };

  it('the record rebuilt in a worker gives the verdict the full JSON gives, for every asset and variant', () => {
    let checked = 0;
    for (const asset of subjects) {
      for (const [what, change] of variants) {
        const a = clone(asset) as A;
        try {
          change(a);
        } catch {
          continue; // the variant does not apply to this asset's shape
        }
        const direct = (() => {
          try {
            return verifyAssetLeaf(a);
          } catch (e) {
            return { threw: (e as Error).message };
          }
        })();
        const packed = (() => {
          try {
            return verifyAssetLeaf(roundTrip(a));
          } catch (e) {
            return { threw: (e as Error).message };
          }
        })();
        expect(packed, `${String(a.id)}: ${what}`).toEqual(direct);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(subjects.length * (variants.length - 4));
  });

  it('every path the verifier reads survives the trip with its value and type', () => {
    const a = clone(mpl[1].getAsset) as A;
    a.uses = { use_method: 'Multiple', remaining: 2, total: 5 };
    a.supply = { edition_nonce: 9 };
    a.grouping = [{ group_key: 'collection', group_value: other, verified: true }];
    const r = roundTrip(a) as A;
    expect(r.id).toBe(a.id);
    expect(r.compression).toEqual(
      Object.fromEntries(
        Object.keys((ASSET_LEAF_READS as A).compression)
          .filter((k) => k in a.compression)
          .map((k) => [k, a.compression[k]]),
      ),
    );
    expect(r.ownership.owner).toBe(a.ownership.owner);
    expect(r.creators).toEqual(a.creators.map((c: A) => ({ address: c.address, verified: c.verified, share: c.share })));
    expect(r.grouping).toEqual(a.grouping);
    expect(r.content).toEqual({ json_uri: a.content.json_uri, metadata: { name: a.content.metadata.name, symbol: a.content.metadata.symbol } });
    expect(r.royalty).toEqual({ basis_points: a.royalty.basis_points, primary_sale_happened: a.royalty.primary_sale_happened });
    expect(r.uses).toEqual(a.uses);
    expect(r.supply).toEqual(a.supply);
    expect(r.mutable).toBe(a.mutable);
  });

  it('a whole batch verified as the pool does equals verifyAssetLeaf item by item', () => {
    const items = subjects.flatMap((s) => variants.slice(0, 12).map(([, change]) => {
      const a = clone(s) as A;
      try {
        change(a);
      } catch {
        /* as is */
      }
      return a;
    }));
    const w = new BatchWriter(items.length);
    for (const it of items) packItem(kinds['asset-leaf'], it, w);
    const { valid, extras } = verifyBatch('asset-leaf', w.finish());
    const detail = new Map(extras);
    let compact = 0;
    let plain = 0;
    items.forEach((it, i) => {
      let want;
      try {
        want = verifyAssetLeaf(it);
      } catch (e) {
        want = { valid: false, reason: (e as Error).message };
      }
      const id = typeof it.id === 'string' ? it.id : undefined;
      if (!detail.has(i)) compact++;
      if (want.valid && !('reason' in want)) plain++;
      expect(decodeVerdict(kinds['asset-leaf'], valid[i]!, detail.get(i), id)).toEqual(want);
    });
    // valid verdicts with only a status travel as a code byte, not as an object
    expect(plain).toBeGreaterThan(20);
    expect(compact).toBe(plain);
  });
});

describe('what the JSON can not tell', () => {
  const base = mpl[1]; // V1, no creators, no collection
  const c = base.getAsset.compression;
  const owner = bs58.decode(base.getAsset.ownership.owner);
  const args: MetadataArgsV1 = {
    name: base.metadataArgs.name,
    symbol: base.metadataArgs.symbol,
    uri: base.metadataArgs.uri,
    sellerFeeBasisPoints: base.metadataArgs.sellerFeeBasisPoints,
    primarySaleHappened: false,
    isMutable: true,
    editionNonce: null,
    tokenStandard: TokenStandard.NonFungible,
    collection: null,
    uses: null,
    tokenProgramVersion: 0,
    creators: [],
  };
  /** The asset as the indexer would show it for a leaf minted with `m`. */
  function indexed(m: MetadataArgsV1) {
    const a = clone(base.getAsset);
    const dataHash = dataHashV1(m);
    const leaf = leafHashV1({ id: bs58.decode(a.id), owner, delegate: owner, nonce: BigInt(c.leaf_id), dataHash, creatorHash: creatorHash([]) });
    a.compression.data_hash = bs58.encode(dataHash);
    a.compression.asset_hash = bs58.encode(leaf);
    return a;
  }

  it('a token standard other than the printed NonFungible still re-derives (the indexer pitfall)', () => {
    for (const tokenStandard of [null, TokenStandard.Fungible, TokenStandard.NonFungibleEdition]) {
      const a = indexed({ ...args, tokenStandard });
      expect(a.content.metadata.token_standard ?? 'NonFungible').toBe('NonFungible');
      expect(verifyAssetLeaf(a)).toMatchObject({ valid: true, status: 'matches' });
    }
  });

  it('metadata the JSON does not carry leaves data_hash "cannot-derive", the leaf still valid', () => {
    const a = indexed({ ...args, uses: { useMethod: 1, remaining: 3n, total: 5n } });
    expect(verifyAssetLeaf(a)).toMatchObject({ valid: true, status: 'cannot-derive', reason: expect.stringMatching(/data_hash could not be re-derived/) });
  });

  it('a redeemed asset (zero leaf) is recognised', () => {
    const a = clone(base.getAsset);
    a.compression.asset_hash = bs58.encode(new Uint8Array(32));
    expect(verifyAssetLeaf(a)).toMatchObject({ valid: false, status: 'redeemed' });
  });

  it('collection_hash of no collection is keccak of 32 zero bytes', () => {
    const none = compressedAssets.find((x) => isV2(x.asset) && !x.asset.grouping.length)!.asset;
    expect(bs58.encode(collectionHash(null))).toBe(none.compression.collection_hash);
  });
});
