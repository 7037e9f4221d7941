/**
 * Direct tests of src/sender/build/builder.ts: `scan` and `createBuilder` over a small fake RPC (the slice
 * build/inputs.ts and build/builder.ts call: getLatestBlockhash, getPriorityFeeEstimate, simulateTransaction).
 * The wire bytes are read back with the same /fast reader the devnet uses.
 */
import { describe, expect, it } from 'vitest';
import { createBuilder, scan } from '../../src/sender/build/builder.js';
import { resolveSenderConfig, DEFAULT_TIP_ACCOUNTS, type SenderOptions } from '../../src/sender/config.js';
import { prepareInput } from '../../src/sender/input/prepare.js';
import type { SenderRpc } from '../../src/sender/client/rpc.js';
import { generateSigner } from '../../src/solana/signer.js';
import { readFastRules, tipAccountBytes } from '../../src/solana/fast-rules.js';
import { computeUnitLimitInstruction, computeUnitPriceInstruction, transferInstruction } from '../../src/solana/instructions.js';
import { parseTransaction } from '../../src/solana/index.js';
import { encodeBase58 } from '../../src/solana/base58.js';
import { CairnError } from '../../src/errors/index.js';

const TIPS = tipAccountBytes(DEFAULT_TIP_ACCOUNTS);
const HASH_A = encodeBase58(new Uint8Array(32).fill(7));
/** A low minimum tip, so that small tips in these tests are legal. */
const MIN_TIP = 1_000n;
const HASH_B = encodeBase58(new Uint8Array(32).fill(9));

interface FakeOpts {
  estimate?: number;
  unitsConsumed?: number | bigint;
  simErr?: unknown;
  hashes?: string[];
}

// The builder picks one tip account at random per build: with a single one (builderOf's default),
// identical inputs sign identical bytes, which is what `claim` is for.

/** A fake of the three client methods the builder reaches; records each call by name. */
function fakeRpc(o: FakeOpts = {}) {
  const calls: string[] = [];
  const hashes = o.hashes ?? [HASH_A];
  let h = 0;
  const rpc = {
    async getLatestBlockhash() {
      calls.push('getLatestBlockhash');
      const blockhash = hashes[Math.min(h, hashes.length - 1)]!;
      h++;
      return { blockhash, lastValidBlockHeight: 1_000 + h };
    },
    async getPriorityFeeEstimate() {
      calls.push('getPriorityFeeEstimate');
      return { priorityFeeEstimate: o.estimate ?? 10_000 };
    },
    async simulateTransaction() {
      calls.push('simulateTransaction');
      return { err: o.simErr ?? null, logs: [], unitsConsumed: o.unitsConsumed ?? 5_000 };
    },
  } as unknown as SenderRpc;
  return { rpc, calls };
}

const payer = generateSigner();
const dest = generateSigner().address;
const userIx = () => transferInstruction(payer.address, dest, 1_000n);
const plan = (instructions = [userIx()]) => {
  const p = prepareInput({ instructions, payer }, resolveSenderConfig());
  if (p.kind !== 'plan') throw new Error('expected a plan');
  return p;
};
const read = (wire: Uint8Array) => readFastRules(parseTransaction(wire).parts, TIPS);
const signal = new AbortController().signal;
const builderOf = (opts: SenderOptions, f: FakeOpts = {}) => {
  const fake = fakeRpc(f);
  return { ...fake, b: createBuilder(fake.rpc, resolveSenderConfig({ minTipLamports: { dual: MIN_TIP }, tipAccounts: [DEFAULT_TIP_ACCOUNTS[0]!], ...opts })) };
};

describe('scan', () => {
  it('reports what the caller already put in: price, limit, summed tips', () => {
    expect(scan([userIx()], DEFAULT_TIP_ACCOUNTS)).toEqual({ price: false, limit: false });
    const ixs = [
      computeUnitPriceInstruction(5n),
      computeUnitLimitInstruction(300),
      transferInstruction(payer.address, DEFAULT_TIP_ACCOUNTS[0]!, 600n),
      transferInstruction(payer.address, DEFAULT_TIP_ACCOUNTS[1]!, 700n),
    ];
    expect(scan(ixs, DEFAULT_TIP_ACCOUNTS)).toEqual({ price: true, limit: true, tip: 1_300n });
    // A transfer to an address that is not a tip account is no tip.
    expect(scan([transferInstruction(payer.address, dest, 10_000n)], DEFAULT_TIP_ACCOUNTS).tip).toBeUndefined();
  });
});

describe('createBuilder levers', () => {
  it('fixed price, fixed limit, min tip: all three in the wire, signature is the first signature', async () => {
    const { b, calls } = builderOf({ cuPrice: 1_234, cuLimit: 50_000 });
    const built = await b.build(plan(), { signal });
    expect(built).toMatchObject({ cuPrice: 1_234n, cuLimit: 50_000, tipLamports: MIN_TIP, lastValidBlockHeight: 1_001 });
    const r = read(built.wire);
    expect(r.cuPrice).toBe(1_234n);
    expect(r.cuLimit).toBe(50_000);
    expect(r.tip?.lamports).toBe(MIN_TIP);
    expect(encodeBase58(parseTransaction(built.wire).signatures[0]!)).toBe(built.signature);
    // fixed price and limit: no estimate, no simulation
    expect(calls).toEqual(['getLatestBlockhash']);
  });

  it('estimated price × multiplier, capped by maxCuPrice', async () => {
    const { b } = builderOf({ cuPrice: { estimate: 'Medium', multiplier: 2 }, cuLimit: 10_000 }, { estimate: 1_000 });
    expect((await b.build(plan(), { signal })).cuPrice).toBe(2_000n);
    const capped = builderOf({ cuPrice: { estimate: 'High', multiplier: 2 }, cuLimit: 10_000, maxCuPrice: 1_500 }, { estimate: 1_000 });
    const built = await capped.b.build(plan(), { signal });
    expect(built.cuPrice).toBe(1_500n);
    expect(read(built.wire).cuPrice).toBe(1_500n);
  });

  it('simulated limit: units × margin, at least min, at most 1,400,000; a failed simulation throws', async () => {
    const sim = builderOf({ cuPrice: 1, cuLimit: { simulate: true, margin: 1.5, min: 1_000 } }, { unitsConsumed: 10_000 });
    const built = await sim.b.build(plan(), { signal });
    expect(built.cuLimit).toBe(15_000);
    expect(read(built.wire).cuLimit).toBe(15_000);
    expect(sim.calls).toContain('simulateTransaction');

    const small = builderOf({ cuPrice: 1, cuLimit: { simulate: true, margin: 1.1, min: 3_000 } }, { unitsConsumed: 100 });
    expect((await small.b.build(plan(), { signal })).cuLimit).toBe(3_000);
    const big = builderOf({ cuPrice: 1, cuLimit: { simulate: true, margin: 2, min: 1_000 } }, { unitsConsumed: 1_000_000 });
    expect((await big.b.build(plan(), { signal })).cuLimit).toBe(1_400_000);
    const none = builderOf({ cuPrice: 1, cuLimit: { simulate: true, fallback: 77_777 } }, { unitsConsumed: 0 });
    expect((await none.b.build(plan(), { signal })).cuLimit).toBe(77_777);

    const failing = builderOf({ cuPrice: 1, cuLimit: { simulate: true } }, { simErr: { InstructionError: [0, 'Custom'] } });
    await expect(failing.b.build(plan(), { signal })).rejects.toThrow(/simulation failed/);
  });

  it('fixed tip goes to one of the tip accounts', async () => {
    const { b } = builderOf({ cuPrice: 1, cuLimit: 1_000, tip: 5_000, tipAccounts: DEFAULT_TIP_ACCOUNTS });
    const built = await b.build(plan(), { signal });
    expect(built.tipLamports).toBe(5_000n);
    const r = read(built.wire);
    expect(r.tip?.lamports).toBe(5_000n);
    expect(DEFAULT_TIP_ACCOUNTS).toContain(encodeBase58(r.tip!.largestTo));
  });
});

describe("the caller's own levers are kept, not doubled", () => {
  it('own CU price: no price added, no estimate asked; own limit: no simulation; own tip: no second tip', async () => {
    const ixs = [
      computeUnitPriceInstruction(42n),
      computeUnitLimitInstruction(9_999),
      userIx(),
      transferInstruction(payer.address, DEFAULT_TIP_ACCOUNTS[0]!, 3_000n),
    ];
    const { b, calls } = builderOf({ cuPrice: { estimate: 'Medium' }, cuLimit: { simulate: true } });
    const built = await b.build(plan(ixs), { signal });
    expect(calls).toEqual(['getLatestBlockhash']);
    const parts = parseTransaction(built.wire).parts;
    // exactly the caller's four instructions
    expect(parts.instructions).toHaveLength(4);
    const r = read(built.wire);
    expect(r.cuPrice).toBe(42n);
    expect(r.cuLimit).toBe(9_999);
    expect(r.tip).toMatchObject({ lamports: 3_000n, transfers: 1 });
    expect(built.tipLamports).toBe(3_000n);
    expect(built.cuLimit).toBeUndefined();
  });

  it('a tip of its own below the minimum is refused', async () => {
    const { b } = builderOf({ cuPrice: 1, cuLimit: 1_000 });
    const ixs = [userIx(), transferInstruction(payer.address, DEFAULT_TIP_ACCOUNTS[0]!, 1n)];
    const err = await b.build(plan(ixs), { signal }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CairnError);
    expect((err as CairnError).code).toBe('SENDER_MISSING_TIP');
  });
});

describe('claim: identical inputs become distinct', () => {
  it('identical builds sign identical bytes without claim', async () => {
    const { b } = builderOf({ cuPrice: 1_000, cuLimit: 1_000, tip: 2_000 });
    const p = plan();
    const [x, y] = [await b.build(p, { signal }), await b.build(p, { signal })];
    expect(x.signature).toBe(y.signature);
  });

  it('the price moves one µlamport first', async () => {
    const { b } = builderOf({ cuPrice: 1_000, cuLimit: 1_000, tip: 2_000 });
    const seen = new Set<string>();
    const claim = (s: string) => (seen.has(s) ? false : (seen.add(s), true));
    const p = plan();
    const built = await Promise.all([1, 2, 3].map(() => b.build(p, { signal, claim })));
    expect(new Set(built.map((x) => x.signature)).size).toBe(3);
    expect(built.map((x) => x.cuPrice).sort()).toEqual([1_000n, 1_001n, 1_002n]);
    for (const x of built) expect(read(x.wire).cuPrice).toBe(x.cuPrice);
    expect(built.every((x) => x.cuLimit === 1_000 && x.tipLamports === 2_000n)).toBe(true);
  });

  it('own price: the limit moves; own price and limit: the tip moves; nothing left: a newer blockhash', async () => {
    const claimOnce = () => {
      const seen = new Set<string>();
      return (s: string) => (seen.has(s) ? false : (seen.add(s), true));
    };
    // own price: the limit is the lever
    {
      const { b } = builderOf({ cuPrice: 1, cuLimit: 1_000, tip: 2_000 });
      const p = plan([computeUnitPriceInstruction(5n), userIx()]);
      const claim = claimOnce();
      const a = await b.build(p, { signal, claim });
      const c = await b.build(p, { signal, claim });
      expect([a.cuLimit, c.cuLimit]).toEqual([1_000, 1_001]);
      expect(read(c.wire).cuPrice).toBe(5n);
    }
    // own price and limit: the tip is the lever
    {
      const { b } = builderOf({ cuPrice: 1, cuLimit: 1_000, tip: 2_000 });
      const p = plan([computeUnitPriceInstruction(5n), computeUnitLimitInstruction(700), userIx()]);
      const claim = claimOnce();
      const a = await b.build(p, { signal, claim });
      const c = await b.build(p, { signal, claim });
      expect([a.tipLamports, c.tipLamports]).toEqual([2_000n, 2_001n]);
      expect(read(c.wire).tip?.lamports).toBe(2_001n);
    }
    // own price, limit and tip: only a newer blockhash makes them distinct
    {
      const { b, calls } = builderOf({ cuPrice: 1, cuLimit: 1_000, blockhashTtlMs: 50 }, { hashes: [HASH_A, HASH_B] });
      const p = plan([
        computeUnitPriceInstruction(5n),
        computeUnitLimitInstruction(700),
        userIx(),
        transferInstruction(payer.address, DEFAULT_TIP_ACCOUNTS[0]!, 3_000n),
      ]);
      const claim = claimOnce();
      const a = await b.build(p, { signal, claim });
      const c = await b.build(p, { signal, claim });
      expect(a.signature).not.toBe(c.signature);
      expect(encodeBase58(parseTransaction(a.wire).parts.recentBlockhash)).toBe(HASH_A);
      expect(encodeBase58(parseTransaction(c.wire).parts.recentBlockhash)).toBe(HASH_B);
      expect(c.tipLamports).toBe(3_000n);
      expect(calls.filter((m) => m === 'getLatestBlockhash').length).toBe(2);
    }
  });

  it('a blockhash past its ttl is signed with at once while the next is fetched (a refused fetch holds no build up); past ten ttls the build waits', async () => {
    const hashOf = (wire: Uint8Array) => encodeBase58(parseTransaction(wire).parts.recentBlockhash);
    let gate: Promise<void> = Promise.resolve();
    let fail = false;
    const calls: string[] = [];
    const hashes = [HASH_A, HASH_B];
    const rpc = {
      async getLatestBlockhash() {
        calls.push('getLatestBlockhash');
        await gate;
        if (fail) throw new CairnError('RPC_RATE_LIMITED', 'rate limited');
        return { blockhash: hashes[Math.min(calls.length - 1, 1)]!, lastValidBlockHeight: 1_000 + calls.length };
      },
    } as unknown as SenderRpc;
    const b = createBuilder(rpc, resolveSenderConfig({ cuPrice: 1, cuLimit: 1_000, blockhashTtlMs: 100, minTipLamports: { dual: MIN_TIP } }));
    expect(hashOf((await b.build(plan(), { signal })).wire)).toBe(HASH_A);
    await new Promise((r) => setTimeout(r, 120));
    // past the ttl, the fetch hangs (refused, then a Retry-After): the build signs with the one it has
    let open!: () => void;
    gate = new Promise<void>((r) => (open = r));
    fail = true;
    expect(hashOf((await b.build(plan(), { signal })).wire)).toBe(HASH_A);
    expect(calls).toHaveLength(2);
    open();
    await new Promise((r) => setTimeout(r, 5));
    // the refused fetch changed nothing; the next build past the ttl fetches again, and gets B
    fail = false;
    expect(hashOf((await b.build(plan(), { signal })).wire)).toBe(HASH_A);
    await new Promise((r) => setTimeout(r, 5));
    expect(calls).toHaveLength(3);
    expect(hashOf((await b.build(plan(), { signal })).wire)).toBe(HASH_B);
    // ten ttls old: too old to hand out, the build waits for the fetch
    await new Promise((r) => setTimeout(r, 1_050));
    gate = new Promise<void>((r) => (open = r));
    let done = false;
    const late = b.build(plan(), { signal }).then((x) => ((done = true), x));
    await new Promise((r) => setTimeout(r, 20));
    expect(done).toBe(false);
    open();
    expect((await late).lastValidBlockHeight).toBe(1_004);
  });

  it('refuses a blockhash already past minLastValidBlockHeight', async () => {
    const { b } = builderOf({ cuPrice: 1, cuLimit: 1_000 });
    const err = await b.build(plan(), { signal, minLastValidBlockHeight: 5_000 }).catch((e: unknown) => e);
    expect((err as CairnError).code).toBe('SENDER_BLOCKHASH_EXPIRED');
  });
});
