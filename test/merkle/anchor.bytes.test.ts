/**
 * Anchored verification of a raw response (bytes, or an inspected body) gives exactly the verdicts
 * of the same response parsed: the claims read from its scan (anchor/tape-claims.ts) are those
 * `claimsOf` reads of the parsed items — real roots anchored, fabrications `unknown-root`, trees with
 * no account or that are no tree, null items, malformed items, members spelled with escapes, a member
 * given twice (the last one counts, as for JSON.parse and the workers), in arrays and in objects keyed
 * by id, small (parsed whole) and large (read from the tape) — and the tree accounts are read once.
 */
import { join } from 'node:path';
import bs58 from 'bs58';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { fabricateAccountProof, fabricateAddressProof, fabricateAssetProof } from '../../src/devnet/faults/lies.js';
import { mulberry32 } from '../../src/devnet/chain/mulberry32.js';
import { createVerifier } from '../../src/merkle/verifier/create-verifier.js';
import { inspectBody } from '../../src/merkle/verifier/inspect-body.js';
import type { Verdict } from '../../src/merkle/verdict.js';

const CACHE = join(process.cwd(), 'node_modules', '.cache', 'cairn');
const addr = () => Keypair.generate().publicKey.toBase58();
const draw = mulberry32(11);

let devnet: Devnet;
async function rpc(method: string, params: unknown): Promise<any> {
  const res = await fetch(devnet.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await res.json()) as any;
  if (body.error) throw new Error(JSON.stringify(body.error));
  return body.result;
}

let assetProof: any;
let accountProof: any;
let addressProof: any;
beforeAll(async () => {
  devnet = await startDevnet({ slotMs: 20, seed: 37, proverCacheDir: CACHE });
  const { assetId } = await devnet.das!.mintCompressedNft({ name: 'B', symbol: 'B', description: '', owner: addr(), confirmTransaction: true });
  assetProof = await rpc('getAssetProof', { id: assetId });
  const created = await devnet.compression!.createCompressedAccount({ owner: addr() });
  accountProof = (await rpc('getCompressedAccountProof', { hash: (created.account as any).hash })).value;
  const address = bs58.encode(Uint8Array.from(bs58.decode(addr()), (b, i) => (i === 0 ? 0 : b)));
  addressProof = (await rpc('getMultipleNewAddressProofs', [address])).value[0];
}, 60_000);
afterAll(async () => {
  await devnet?.stop();
});

/** `text` with its first `"name":` spelled with a \u escape in the key (same member once parsed). */
const escapeKey = (text: string, name: string): string => text.replace(`"${name}":`, `"\\u00${name.charCodeAt(0).toString(16)}${name.slice(1)}":`);

/** The items of one kind as JSON texts: real, lies, odd trees, null, malformed, escaped, twice given. */
function itemTexts(real: any, fabricate: (p: any) => any, treeField: string): string[] {
  const lie = fabricate(real);
  const s = JSON.stringify;
  return [
    s(real),
    s(lie),
    s(fabricate({ ...real, [treeField]: addr() })),
    s({ ...real, [treeField]: devnet.chain.authority.address }),
    'null',
    s({ ...real, root: 'not base58 0OIl' }),
    escapeKey(s(real), 'root'),
    escapeKey(s(lie), treeField),
    // the real root given first, the lie's last: the last one counts
    s(lie).replace(/^\{/, `{"root":${s(real.root)},`),
    s(real).replace(/^\{/, `{"root":${s(lie.root)},`),
  ];
}

/** Verdicts without the slot the chain answered at (every read here is a new one: cacheMs 0). */
const noSlot = (vs: Verdict[]): Verdict[] => vs.map(({ anchorSlot: _, ...v }) => v);

describe('anchored verification of raw bytes', () => {
  it('gives the parsed input verdicts, small and large, listed and keyed, with one tree read per answer', async () => {
    const v = createVerifier({ threads: 1, anchor: { rpc: devnet.url, cacheMs: 0 } });
    try {
      const kinds = [
        ['asset-proof', assetProof, (p: any) => fabricateAssetProof(p, draw), 'tree_id'],
        ['account-proof', accountProof, (p: any) => fabricateAccountProof(p, draw), 'merkleTree'],
        ['address-proof', addressProof, (p: any) => fabricateAddressProof(p, draw), 'tree'],
      ] as const;
      for (const [kind, real, fabricate, treeField] of kinds) {
        const texts = itemTexts(real, fabricate, treeField);
        // small: parsed whole by the verifier; large (past 16 KiB): read from the tape
        for (const copies of [1, 40]) {
          const all = Array.from({ length: copies }, () => texts).flat();
          const listed = `{"jsonrpc":"2.0","id":1,"result":{"context":{"slot":1},"value":[${all.join(',')}]}}`;
          const keyed = `{"jsonrpc":"2.0","id":1,"result":{${all.map((t, i) => `"k${i}":${t}`).join(',')}}}`;
          for (const body of kind === 'asset-proof' ? [listed, keyed] : [listed]) {
            const parsed = noSlot(await v.verify(kind, JSON.parse(body)));
            const what = `${kind} ×${copies} ${body === keyed ? 'keyed' : 'listed'}`;
            expect(parsed.filter((x) => x.anchored).length, what).toBeGreaterThan(0);
            expect(parsed.filter((x) => x.status === 'unknown-root').length, what).toBeGreaterThan(0);
            const bytes = new TextEncoder().encode(body);
            expect(noSlot(await v.verify(kind, bytes)), what).toEqual(parsed);
            expect(noSlot(await v.verify(kind, inspectBody(kind, bytes))), what).toEqual(parsed);
            expect(noSlot((await v.verifyTable(kind, bytes)).toArray()), what).toEqual(parsed);
          }
        }
      }
    } finally {
      await v.close();
    }
  }, 120_000);

  it('reads the trees once per answer, and refuses what is not JSON as before', async () => {
    let reads = 0;
    const counting = { getMultipleAccounts: async (keys: string[], cfg: any) => (reads++, (await rpc('getMultipleAccounts', [keys, cfg])).value) };
    const v = createVerifier({ threads: 1, anchor: { rpc: counting, cacheMs: 0 } });
    try {
      const items = Array.from({ length: 200 }, () => JSON.stringify(assetProof)).join(',');
      const verdicts = await v.verify('asset-proof', new TextEncoder().encode(`[${items}]`));
      expect(verdicts.every((x) => x.valid && x.anchored)).toBe(true);
      expect(reads).toBe(1);
      await expect(v.verify('asset-proof', new TextEncoder().encode('[{"root": '))).rejects.toThrow(/not JSON/);
    } finally {
      await v.close();
    }
  });
});
