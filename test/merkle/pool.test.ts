import { afterAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { createVerifier } from '../../src/merkle/verifier.js';
import { PoolClosedError, WorkerCrashedError, WorkerPool } from '../../src/merkle/pool.js';
import { encodeBatch } from '../../src/merkle/codec.js';
import { encodeAccountProof, parseAccountProof } from '../../src/merkle/account.js';
import { CairnError, InputError } from '../../src/errors.js';

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
  const batch = () => encodeBatch(proofItems.slice(0, 4).map((i) => encodeAccountProof(parseAccountProof(i))));

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
