import { afterAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { createVerifier } from '../../src/merkle/verifier/create-verifier.js';
import { WorkerPool } from '../../src/merkle/pool.js';
import { b58Field, nodesField } from '../../src/merkle/fields.js';
import { BatchWriter } from '../../src/merkle/records/batch-writer.js';
import { packItem } from '../../src/merkle/kinds/verify-batch.js';
import { kinds } from '../../src/merkle/kinds/index.js';
import { verifyAccountHash, verifyAccountProof } from '../../src/merkle/compressed/account.js';
import { parseAccountProof, parseCompressedAccount } from '../../src/merkle/compressed/account-parse.js';
import { parseNewAddressProof, verifyNewAddressProof } from '../../src/merkle/compressed/address.js';
import { verifyAssetProof } from '../../src/merkle/cnft/asset-proof.js';
import type { Verdict } from '../../src/merkle/verdict.js';
import { CairnError, InputError, PoolClosedError, WorkerCrashedError, FieldError } from '../../src/errors/index.js';

const load = (f: string) => JSON.parse(readFileSync(`test/vectors/photon/${f}`, 'utf8'));
const proofItems: any[] = [
  ...load('e2e_tests__e2e_mint_and_transfer-bob-proofs.json').value,
  ...load('e2e_tests__e2e_mint_and_transfer-charles-proofs.json').value,
  ...load('e2e_tests__lamport_transfers-payer-proofs.json').value,
];
const accountItems: any[] = load('e2e_tests__e2e_mint_and_transfer-bob-accounts.json').value.items;

/** A proof whose root was changed in its last base58 character: still 32 bytes, wrong root. */
function forged(item: any): any {
  const r: string = item.root;
  return { ...item, root: r.slice(0, -1) + (r.endsWith('2') ? '3' : '2') };
}

/** n items, every third one forged; returns the items and which are valid. */
function mixed(n: number) {
  const items: any[] = [];
  const expected: boolean[] = [];
  for (let i = 0; i < n; i++) {
    const base = proofItems[i % proofItems.length];
    const bad = i % 3 === 2;
    items.push(bad ? forged(base) : base);
    expected.push(!bad);
  }
  return { items, expected };
}

const open: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(open.map((v) => v.close()));
});

/** n account-hash items, every third one with lamports changed (so its hash no longer matches). */
function mixedAccounts(n: number) {
  const items: any[] = [];
  const expected: boolean[] = [];
  for (let i = 0; i < n; i++) {
    const base = accountItems[i % accountItems.length];
    const bad = i % 3 === 2;
    items.push(bad ? { ...base, account: { ...base.account, lamports: 1 } } : base);
    expected.push(!bad);
  }
  return { items, expected };
}

describe('createVerifier', () => {
  // One 2-thread verifier shared by the tests that do not end it: worker start-up is the slow part.
  const shared = createVerifier({ threads: 2, batchSize: 4 });
  open.push(shared);

  it('verifies across 2 threads and returns verdicts in input order with ids', async () => {
    const { items, expected } = mixedAccounts(90);
    const out = await shared.verify('account-hash', items);
    expect(out.map((x) => x.valid)).toEqual(expected);
    expect(out.map((x) => x.id)).toEqual(items.map((x) => x.account.hash));
    expect(out[2]!.reason).toMatch(/hash mismatch/);
    // Paths too, and a whole JSON-RPC response works as input.
    const { items: proofs, expected: pe } = mixed(9);
    const wrapped = { jsonrpc: '2.0', id: 1, result: { context: { slot: 1 }, value: proofs } };
    const pv = await shared.verify('account-proof', wrapped);
    expect(pv.map((x) => x.valid)).toEqual(pe);
    expect(pv.map((x) => x.id)).toEqual(proofs.map((x) => x.hash));
    expect(pv[2]!.reason).toMatch(/root mismatch/);
    expect(shared.completed).toBeGreaterThanOrEqual(99);
  });

  it('serves the asset kinds (asset.ts / asset-leaf.ts) on worker threads too', async () => {
    const bg = JSON.parse(readFileSync('test/vectors/bubblegum/mpl_bubblegum_dasApi_3UowCweY_depth14_canopy9.json', 'utf8'));
    const forgedProof = { ...bg.getAssetProof, proof: [...bg.getAssetProof.proof].reverse() };
    const ap = await shared.verify('asset-proof', [bg.getAssetProof, forgedProof, { ...bg.getAssetProof, proof: bg.truncatedProof }]);
    expect(ap.map((x) => x.valid)).toEqual([true, false, false]);
    expect(ap[2]!.status).toBe('truncated');
    const decompressed = JSON.parse(readFileSync('test/vectors/das/cnft_tests__asset_decompress.json', 'utf8'));
    const al = await shared.verify('asset-leaf', [bg.getAsset, decompressed]);
    expect(al.map((x) => [x.id, x.valid, x.status])).toEqual([
      [bg.assetId, true, expect.any(String)],
      [decompressed.id, false, 'no-leaf'],
    ]);
  });

  it("a value problem in one item is that item's verdict; a foreign item is unusable input", async () => {
    const broken = { ...proofItems[0], proof: proofItems[0].proof.map((n: string, i: number) => (i === 7 ? 'xx' : n)) };
    const out = await shared.verify('account-proof', [proofItems[0], broken, proofItems[1]]);
    expect(out.map((x) => x.valid)).toEqual([true, false, true]);
    expect(out[1]!.reason).toMatch(/"proof\[7\]": expected 32 bytes/);
    await expect(shared.verify('account-proof', [proofItems[0], { foo: 1 }])).rejects.toThrow(InputError);
    await expect(shared.verify('nope' as any, [])).rejects.toThrow(/unknown kind/);
  });

  it('verifyStream pulls with backpressure and yields in order', async () => {
    const { items, expected } = mixedAccounts(240);
    let pulled = 0;
    async function* source() {
      for (const it of items) {
        pulled++;
        yield it;
      }
    }
    const got: boolean[] = [];
    let maxAhead = 0;
    for await (const verdict of shared.verifyStream('account-hash', source())) {
      got.push(verdict.valid);
      maxAhead = Math.max(maxAhead, pulled - got.length);
      if (got.length % 40 === 0) await new Promise((r) => setTimeout(r, 5)); // a slow consumer
    }
    expect(got).toEqual(expected);
    // At most threads × inflightPerThread batches (plus the one being filled) run ahead of the consumer.
    expect(maxAhead).toBeLessThanOrEqual(2 * 2 * 4 + 4);
    expect(maxAhead).toBeGreaterThan(4);
  });

  it('a consumer that stops early leaves the verifier usable and nothing unhandled', async () => {
    const { items } = mixedAccounts(60);
    let n = 0;
    for await (const _ of shared.verifyStream('account-hash', items)) if (++n === 4) break;
    expect(n).toBe(4);
    expect((await shared.verify('account-hash', accountItems)).every((x) => x.valid)).toBe(true);
  });

  it('abort rejects with MERKLE_ABORTED, mid-run and up front, and the verifier keeps working', async () => {
    const { items } = mixedAccounts(3000);
    const ac = new AbortController();
    const p = shared.verify('account-hash', items, { signal: ac.signal });
    setTimeout(() => ac.abort(new Error('user hit ctrl-c')), 0);
    await expect(p).rejects.toMatchObject({ code: 'MERKLE_ABORTED', context: { reason: 'user hit ctrl-c' } });
    await expect(shared.verify('account-proof', proofItems.slice(0, 3), { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'MERKLE_ABORTED' });
    // A stream aborted after its first verdict stops with the same error.
    const ac2 = new AbortController();
    let seen = 0;
    const run = async () => {
      for await (const _ of shared.verifyStream('account-hash', items, { signal: ac2.signal })) {
        if (++seen === 1) ac2.abort();
      }
    };
    await expect(run()).rejects.toMatchObject({ code: 'MERKLE_ABORTED' });
    expect(seen).toBeLessThan(items.length);
    const { items: small, expected } = mixed(3);
    expect((await shared.verify('account-proof', small)).map((x) => x.valid)).toEqual(expected);
  });

  it('close() fails pending work with PoolClosedError and leaves no worker thread or handle', async () => {
    // OS threads of this process (Linux): a worker thread is one; idle workers are unref()ed, so the
    // handle list alone would not show them.
    const osThreads = () => readdirSync('/proc/self/task').length;
    const handles = () => process.getActiveResourcesInfo().filter((r) => r !== 'Timeout' && r !== 'TTYWrap').length;
    const before = { threads: osThreads(), handles: handles() };
    const v = createVerifier({ threads: 2, batchSize: 2 });
    const { items } = mixed(100);
    const settled = v.verify('account-proof', items).then(
      () => null,
      (e: unknown) => e,
    );
    await new Promise((r) => setTimeout(r, 20));
    expect(osThreads()).toBeGreaterThanOrEqual(before.threads + 2);
    await v.close();
    expect(await settled).toBeInstanceOf(PoolClosedError);
    await expect(v.verify('account-proof', items.slice(0, 1))).rejects.toMatchObject({ code: 'MERKLE_POOL_CLOSED' });
    await v.close(); // idempotent
    // Thread exit is asynchronous after terminate() resolves; give the OS a moment.
    for (let i = 0; i < 50 && osThreads() > before.threads; i++) await new Promise((r) => setTimeout(r, 20));
    expect(osThreads()).toBeLessThanOrEqual(before.threads);
    expect(handles()).toBeLessThanOrEqual(before.handles);
  });
});

describe('WorkerPool crash handling', () => {
  const batch = () => {
    const w = new BatchWriter(4);
    for (const item of proofItems.slice(0, 4)) packItem(kinds['account-proof'], item, w);
    return w.finish();
  };

  it('a worker that dies fails only its batch with a typed error; the pool recovers', async () => {
    // One thread: the batches queued behind the crash must still run on its replacement.
    const pool = new WorkerPool({ threads: 1, testHooks: true });
    open.push(pool);
    const good1 = pool.run('account-proof', batch(), 4);
    const crash = pool.run('__crash__', new ArrayBuffer(8), 1);
    const good2 = pool.run('account-proof', batch(), 4);
    const err = await crash.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(WorkerCrashedError);
    expect(err).toBeInstanceOf(CairnError);
    expect((err as WorkerCrashedError).code).toBe('MERKLE_WORKER_CRASHED');
    expect((err as WorkerCrashedError).context).toMatchObject({ kind: '__crash__', exitCode: 70 });
    expect(Array.from((await good1).valid)).toEqual([1, 1, 1, 1]);
    expect(Array.from((await good2).valid)).toEqual([1, 1, 1, 1]);
    // An uncaught exception kills a worker the same way; later batches still run.
    await expect(pool.run('__throw__', new ArrayBuffer(8), 1)).rejects.toMatchObject({ code: 'MERKLE_WORKER_CRASHED' });
    expect(Array.from((await pool.run('account-proof', batch(), 4)).valid)).toEqual([1, 1, 1, 1]);
    expect(pool.liveWorkers).toBe(1);
    // Batches already handed to the dying worker but waiting behind the fatal one run on its
    // replacement: one sent as a copy, one moved and packed again through its repack callback.
    let repacked = 0;
    const crash2 = pool.run('__crash__', new ArrayBuffer(8), 1);
    const waitingCopy = pool.run('account-proof', batch(), 4);
    const crash3 = pool.run('__crash__', new ArrayBuffer(8), 1);
    const waitingMoved = pool.run('account-proof', batch(), 4, { repack: () => (repacked++, batch()) });
    await expect(crash2).rejects.toBeInstanceOf(WorkerCrashedError);
    expect(Array.from((await waitingCopy).valid)).toEqual([1, 1, 1, 1]);
    await expect(crash3).rejects.toBeInstanceOf(WorkerCrashedError);
    expect(Array.from((await waitingMoved).valid)).toEqual([1, 1, 1, 1]);
    expect(repacked).toBe(1);
    // An error inside a batch travels back typed (the worker survives it), and so does a corrupt frame.
    await expect(pool.run('no-such-kind', batch(), 4)).rejects.toMatchObject({ code: 'MERKLE_INVALID_INPUT' });
    const buf = batch();
    new DataView(buf).setUint32(0, 1_000_000, true);
    await expect(pool.run('account-proof', buf, 4)).rejects.toMatchObject({ code: 'INPUT_INVALID' });
    await pool.close();
    expect(pool.liveWorkers).toBe(0);
  });

  it('rejects a bad thread count with a typed error', () => {
    expect(() => new WorkerPool({ threads: 0 })).toThrow(/"threads"/);
  });
});

describe('packed records: the workers give exactly the parsers\' verdicts', () => {
  // The main thread only copies fields; the workers decode them. Every verdict and every reason must
  // be what parse-then-verify on one thread gives, for good items and for each kind of bad field,
  // including two problems at once (the first field in the parser's order wins).
  const photon = (f: string) => JSON.parse(readFileSync(`test/vectors/photon/${f}`, 'utf8'));
  const bg = JSON.parse(readFileSync('test/vectors/bubblegum/mpl_bubblegum_dasApi_BZHZ4GX7_depth14_canopy0.json', 'utf8'));
  const addressItems: any[] = ['e2e_tests__nullfiier_and_address_queue_transactions-proof-address.json', 'mock_tests__get_multiple_new_address_proofs_interop.json'].flatMap((f) =>
    kinds['address-proof'].extract(photon(f)).map((k) => k.item),
  );
  const tokenAccounts: any[] = kinds['account-hash'].extract(photon('e2e_tests__e2e_mint_and_transfer_transactions-bob-accounts-v2.json')).map((k) => k.item);

  const expected = (fn: () => Verdict, id: string | undefined): Verdict => {
    let v: Verdict;
    try {
      v = fn();
    } catch (e) {
      if (!(e instanceof FieldError)) throw e;
      v = { valid: false, reason: e.message };
    }
    return id === undefined ? v : { id, ...v };
  };
  const assetProofExpected = (j: any): Verdict => {
    const root = b58Field(j.root, 'root');
    const leaf = b58Field(j.leaf, 'leaf');
    if (Array.isArray(j.proof) && j.proof.length > 64) throw new FieldError('proof', `expected at most 64 nodes, got ${j.proof.length}`);
    const proof = nodesField(j.proof, 'proof');
    const ni = j.node_index;
    if (typeof ni !== 'number' || !Number.isSafeInteger(ni) || ni < 1) throw new FieldError('node_index', `expected a positive integer, got ${String(ni)}`);
    return verifyAssetProof({ nodeIndex: ni, root, leaf, proof });
  };
  const set = (item: any, path: string, value: unknown): any => {
    const copy = structuredClone(item);
    const keys = path.split('.');
    let o = copy;
    for (const k of keys.slice(0, -1)) o = o[k] ??= {};
    o[keys.at(-1)!] = value;
    return copy;
  };
  const withNode = (item: any, i: number, value: unknown) => ({ ...item, proof: item.proof.map((n: unknown, k: number) => (k === i ? value : n)) });

  const p = proofItems[0];
  const a = tokenAccounts[0];
  const n = addressItems[0];
  const ap = bg.getAssetProof;
  const cases: { kind: 'account-proof' | 'account-hash' | 'address-proof' | 'asset-proof'; items: any[] }[] = [
    {
      kind: 'account-proof',
      items: [
        ...proofItems,
        set(p, 'hash', 'xx'),
        set(p, 'root', 12),
        set(p, 'root', null),
        set(p, 'root', p.root.slice(0, -1) + 'é'),
        withNode(p, 3, '0OIl' + p.proof[3].slice(4)),
        withNode(p, 5, 7),
        withNode(p, 6, 'z'.repeat(44)),
        set(p, 'leafIndex', -1),
        set(p, 'leafIndex', '12'),
        set(p, 'leafIndex', 1.5),
        set(p, 'leafIndex', 2 ** 40),
        set(p, 'treeContext', { treeType: 9 }),
        set(p, 'treeContext', { treeType: 2 }),
        set(p, 'proveByIndex', true),
        set(set(p, 'hash', 'xx'), 'leafIndex', -1),
        set(withNode(p, 1, null), 'hash', 'xx'),
        set(withNode(p, 2, 'bad'), 'leafIndex', -1),
        { ...p, proof: p.proof.slice(0, 20) },
      ],
    },
    {
      kind: 'account-hash',
      items: [
        ...accountItems,
        ...tokenAccounts,
        set(a, 'account.lamports', -5),
        set(a, 'account.lamports', '18446744073709551616'),
        set(a, 'account.lamports', '18446744073709551615'),
        set(a, 'account.owner', 'zz'),
        set(a, 'account.data', 5),
        set(a, 'account.data.discriminator', 'x'),
        set(a, 'account.data.discriminator', '18446744073709551615'),
        set(a, 'account.address', 'abc'),
        set(a, 'account.merkleContext.tree', 1),
        set(a, 'account.merkleContext.treeType', 7),
        set(a, 'tokenData.state', 'weird'),
        set(a, 'tokenData.amount', 2 ** 60),
        set(a, 'tokenData.delegate', 'nope'),
        set(a, 'tokenData.mint', a.account.hash),
        set(set(a, 'account.owner', 'zz'), 'account.lamports', -5),
      ],
    },
    {
      kind: 'address-proof',
      items: [
        ...addressItems,
        set(n, 'treeContext', { treeType: 1 }),
        set(n, 'nextIndex', -1),
        set(n, 'lowElementLeafIndex', 2 ** 33),
        set(n, 'address', 'bad'),
        set(n, 'higherRangeAddress', n.lowerRangeAddress),
        withNode(n, 0, null),
        set(set(n, 'address', 'bad'), 'nextIndex', -1),
      ],
    },
    {
      kind: 'asset-proof',
      items: [
        ap,
        set(ap, 'root', 'x'),
        set(ap, 'node_index', 0),
        set(ap, 'node_index', '5'),
        withNode(ap, 3, {}),
        { ...ap, proof: Array.from({ length: 65 }, () => ap.proof[0]) },
        set(set(ap, 'leaf', 3), 'node_index', 0),
      ],
    },
  ];

  it.each(cases.map((c) => [c.kind, c]))('%s', async (_kind, { kind, items }) => {
    const spec = kinds[kind];
    const want = items.map((item) => {
      const id = spec.id(item);
      if (kind === 'account-proof') return expected(() => verifyAccountProof(parseAccountProof(item)), id);
      if (kind === 'account-hash') return expected(() => verifyAccountHash(parseCompressedAccount(item)), id);
      if (kind === 'address-proof') return expected(() => verifyNewAddressProof(parseNewAddressProof(item)), id);
      return expected(() => assetProofExpected(item), id);
    });
    // The cases must exercise both outcomes and main-thread as well as worker-side reasons.
    expect(want.some((v) => v.valid)).toBe(true);
    expect(want.filter((v) => !v.valid).length).toBeGreaterThan(3);
    const inline = createVerifier({ threads: 0 });
    open.push(inline);
    expect(await inline.verify(kind, items)).toEqual(want);
    const pooled = createVerifier({ threads: 1, batchSize: 5 });
    open.push(pooled);
    expect(await pooled.verify(kind, items)).toEqual(want);
  });
});
