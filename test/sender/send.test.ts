/**
 * Acceptance of issue 5 against the real devnet (LiteSVM executing every transaction), over HTTP
 * through the real client: one transfer; 300 concurrent sends with ≤ 2 status calls per tracker
 * tick; 30% silent drops; expiry after a final status read, and re-signing after proven expiry; an
 * on-chain failure with logs and no rebroadcast; refused signed bytes; abort and close; idempotent
 * ids; web3.js transaction inputs; swqos_only; simulated CU limit and estimated CU price.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { ComputeBudgetProgram, Keypair, PublicKey, SystemProgram, Transaction, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { BlockhashExpiredError, TransactionFailedError, type CairnError } from '../../src/errors/index.js';
import { addressBytes } from '../../src/solana/address.js';
import { createSender, generateSigner, resolveSenderConfig, transferInstruction, type SenderEventMap } from '../../src/sender/index.js';
import { recording, setup, sleep, transferTo, type Env } from '../support/sender.js';

let env: Env;
const fast = { cuPrice: 200_000, cuLimit: 1_000, pollMs: 50, rebroadcastMs: 300 } as const;

beforeAll(async () => {
  env = await setup(50);
  // Tip accounts exist (are rent-exempt) on the real cluster: so here too, so that a small tip to one
  // of them never fails for rent, whichever test happens to run first.
  for (const t of resolveSenderConfig({}).tipAccounts) await env.devnet.control.airdrop(t, 10n ** 9n);
});
afterAll(async () => {
  await env?.stop();
});

function executedTo(to: string) {
  const bytes = addressBytes(to, 'to');
  return env.devnet.control
    .ledger()
    .map((tx) => ({ tx, lamports: transferTo(tx.wire, bytes) }))
    .filter((x) => x.lamports !== undefined);
}

describe('sender against the devnet', () => {
  it('one transfer lands and confirms, with events, outcome and timings', async () => {
    const sender = createSender({ client: env.client, ...fast });
    const seen: string[] = [];
    for (const k of ['sent', 'landed', 'confirmed'] as const) sender.on(k, () => seen.push(k));
    const to = generateSigner().address;
    const out = await sender.send({ instructions: [transferInstruction(env.payer.address, to, 1_000_000_000n)], payer: env.payer });
    expect(out.commitment).toBe('confirmed');
    expect(out.attempts).toBe(1);
    expect(out.slot).toBeGreaterThan(0);
    expect(out.timings.firstSubmitMs).toBeGreaterThan(0);
    expect(out.timings.confirmedMs).toBeGreaterThanOrEqual(out.timings.landedMs!);
    expect(seen).toEqual(['sent', 'landed', 'confirmed']);
    expect(env.devnet.chain.balance(to)).toBe(1_000_000_000n);
    const tx = env.devnet.chain.transaction(out.signature)!;
    expect(tx.err).toBeNull();
    expect(tx.computeUnitPrice).toBe(200_000);
    await sender.close();
  });

  it('300 concurrent sends all land; the devnet sees ≤ 2 status calls per tracker tick', async () => {
    const { rpc, calls } = recording(env.client);
    const sender = createSender({ client: rpc, ...fast, rebroadcastMs: 2_000 });
    const to = generateSigner().address;
    await env.devnet.control.airdrop(to, 10n ** 9n);
    env.devnet.control.clearRequestLog();
    const inputs = Array.from({ length: 300 }, (_, i) => ({ instructions: [transferInstruction(env.payer.address, to, 10_000 + i)], payer: env.payer }));
    const indexes = new Set<number>();
    for await (const r of sender.sendMany(inputs, { concurrency: 300 })) {
      if (!r.ok) throw r.error;
      indexes.add(r.index);
    }
    expect(indexes.size).toBe(300);
    const log = env.devnet.control.requestLog();
    const statusCalls = log.filter((e) => e.method === 'getSignatureStatuses');
    const heightCalls = log.filter((e) => e.method === 'getBlockHeight');
    const ticks = sender.stats.tracker.ticks;
    expect(heightCalls.length).toBe(ticks); // one height per tick
    expect(statusCalls.length).toBeLessThanOrEqual(2 * ticks);
    expect(Math.max(...statusCalls.map((e) => e.items ?? 0))).toBeLessThanOrEqual(256);
    expect(statusCalls.length).toBeLessThan(60); // not one per transaction
    // the tracker's own record agrees with the devnet's log
    expect(calls.filter((c) => c.method === 'getSignatureStatuses').length).toBe(statusCalls.length);
    const landed = executedTo(to).filter((x) => x.lamports !== 10n ** 9n);
    expect(landed).toHaveLength(300);
    expect(new Set(landed.map((x) => x.lamports)).size).toBe(300);
    await sender.close();
  });

  it('with 30% silent drops on /fast every transaction lands, each exactly once', async () => {
    const sender = createSender({ client: env.client, ...fast });
    const to = generateSigner().address;
    await env.devnet.control.airdrop(to, 10n ** 9n);
    env.devnet.control.setFaults('fast', { dropRate: 0.3 });
    let rebroadcasts = 0;
    sender.on('rebroadcast', () => rebroadcasts++);
    try {
      const inputs = Array.from({ length: 60 }, (_, i) => ({ instructions: [transferInstruction(env.payer.address, to, 20_000 + i)], payer: env.payer }));
      const results = [];
      for await (const r of sender.sendMany(inputs, { concurrency: 60 })) results.push(r);
      expect(results.filter((r) => !r.ok)).toEqual([]);
    } finally {
      env.devnet.control.setFaults('fast', {});
    }
    expect(rebroadcasts).toBeGreaterThan(0);
    const landed = executedTo(to).filter((x) => x.lamports !== 10n ** 9n);
    expect(landed).toHaveLength(60);
    expect(new Set(landed.map((x) => x.lamports)).size).toBe(60);
    expect(new Set(landed.map((x) => x.tx.signature)).size).toBe(60);
    await sender.close();
  });

  it('100% drops and short slots: BlockhashExpiredError after the final status read, with both heights', async () => {
    const { rpc, calls } = recording(env.client);
    const sender = createSender({ client: rpc, ...fast });
    env.devnet.chain.setSlotMs(5);
    env.devnet.control.setFaults('fast', { dropRate: 1 });
    const expired: SenderEventMap['expired'][] = [];
    sender.on('expired', (e) => expired.push(e));
    try {
      const to = generateSigner().address;
      const err = await sender.send({ instructions: [transferInstruction(env.payer.address, to, 1_000_000_000n)], payer: env.payer }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BlockhashExpiredError);
      const ctx = (err as BlockhashExpiredError).context;
      expect(ctx.blockHeight).toBeGreaterThan(ctx.lastValidBlockHeight);
      expect(expired).toHaveLength(1);
      expect(expired[0].willResign).toBe(false);
      // the proof: a height past the window was observed, THEN a status read (with history) came back empty
      const firstPast = calls.findIndex((c) => c.method === 'getBlockHeight' && (c.result as number) > ctx.lastValidBlockHeight);
      expect(firstPast).toBeGreaterThanOrEqual(0);
      const after = calls.slice(firstPast + 1).filter((c) => c.method === 'getSignatureStatuses');
      expect(after.length).toBeGreaterThanOrEqual(1);
      expect(after.at(-1)!.args[1]).toEqual({ searchTransactionHistory: true });
      expect(after.at(-1)!.at).toBeGreaterThan(calls[firstPast].at);
      expect(env.devnet.chain.status(ctx.signature!)).toBeNull();
    } finally {
      env.devnet.control.setFaults('fast', {});
      env.devnet.chain.setSlotMs(50);
    }
    await sender.close();
  });

  it("onExpired: 'resign' re-signs only after proven expiry and the intent lands once", async () => {
    const sender = createSender({ client: env.client, ...fast, onExpired: 'resign' });
    env.devnet.chain.setSlotMs(5);
    env.devnet.control.setFaults('fast', { dropRate: 1 });
    const order: string[] = [];
    sender.on('sent', (e) => order.push(`sent:${e.attempt}`));
    sender.on('expired', (e) => {
      order.push(`expired:${e.willResign}`);
      env.devnet.control.setFaults('fast', {}); // the next attempt gets through
      env.devnet.chain.setSlotMs(50);
    });
    const to = generateSigner().address;
    try {
      const out = await sender.send({ instructions: [transferInstruction(env.payer.address, to, 1_000_000_000n)], payer: env.payer });
      expect(out.attempts).toBe(2);
      expect(order).toEqual(['sent:1', 'expired:true', 'sent:2']);
      const landed = executedTo(to);
      expect(landed).toHaveLength(1);
      expect(landed[0].tx.signature).toBe(out.signature);
      expect(env.devnet.chain.balance(to)).toBe(1_000_000_000n);
    } finally {
      env.devnet.control.setFaults('fast', {});
      env.devnet.chain.setSlotMs(50);
    }
    await sender.close();
  });

  it('a transaction failing on chain gives TransactionFailedError with logs and is not rebroadcast', async () => {
    const sender = createSender({ client: env.client, ...fast, rebroadcastMs: 100 });
    const poor = generateSigner();
    await env.devnet.control.airdrop(poor.address, 50_000_000n);
    let rebroadcasts = 0;
    sender.on('rebroadcast', () => rebroadcasts++);
    const err = await sender
      .send({ instructions: [transferInstruction(poor.address, generateSigner().address, 10n ** 12n)], payer: poor })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransactionFailedError);
    const ctx = (err as TransactionFailedError).context;
    expect(ctx.err).toBeTruthy();
    expect(ctx.logs?.join('\n')).toMatch(/insufficient lamports|Transfer/i);
    const fastCalls = () => env.devnet.control.requestLog().filter((e) => e.endpoint === 'fast').length;
    const before = fastCalls();
    await sleep(400);
    expect(fastCalls()).toBe(before);
    expect(rebroadcasts).toBe(0);
    expect(env.devnet.chain.transaction(ctx.signature)?.err).toBeTruthy();
    await sender.close();
  });

  it('with a simulated CU limit, a transaction that would fail is refused before sending, with logs', async () => {
    const sender = createSender({ client: env.client, pollMs: 50, cuPrice: 1_000 });
    const poor = generateSigner();
    await env.devnet.control.airdrop(poor.address, 50_000_000n);
    env.devnet.control.clearRequestLog();
    const err = await sender
      .send({ instructions: [transferInstruction(poor.address, generateSigner().address, 10n ** 12n)], payer: poor })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransactionFailedError);
    expect((err as Error).message).toMatch(/simulation failed/);
    expect((err as TransactionFailedError).context.logs?.length).toBeGreaterThan(0);
    expect(env.devnet.control.requestLog().filter((e) => e.endpoint === 'fast')).toHaveLength(0);
    await sender.close();
  });

  it('signed bytes without tip or CU price are refused before sending', async () => {
    const sender = createSender({ client: env.client, ...fast });
    const kp = Keypair.fromSecretKey(env.payer.secretKey());
    const { blockhash } = await env.client.getLatestBlockhash();
    const mk = (price: boolean, tip: boolean) => {
      const tx = new Transaction({ feePayer: kp.publicKey, blockhash, lastValidBlockHeight: 1 });
      if (price) tx.add(ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1 }));
      tx.add(SystemProgram.transfer({ fromPubkey: kp.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1_000_000 }));
      if (tip) tx.add(SystemProgram.transfer({ fromPubkey: kp.publicKey, toPubkey: new PublicKey(sender.config.tipAccounts[0]), lamports: 1_000_000 }));
      tx.sign(kp);
      return new Uint8Array(tx.serialize());
    };
    env.devnet.control.clearRequestLog();
    await expect(sender.send(mk(false, true))).rejects.toMatchObject({ code: 'SENDER_MISSING_CU_PRICE' });
    await expect(sender.send({ wire: mk(true, false) })).rejects.toMatchObject({ code: 'SENDER_MISSING_TIP', message: /tip account/ });
    expect(env.devnet.control.requestLog().filter((e) => e.endpoint === 'fast')).toHaveLength(0);
    // and correct bytes go through as they are
    const good = mk(true, true);
    const out = await sender.send({ wire: good });
    // the outcome names the caller's own signature, and the chain executed exactly those bytes
    expect(out.signature).toBe(bs58.encode(good.subarray(1, 65)));
    const landed = env.devnet.chain.transaction(out.signature);
    expect(landed?.err).toBeNull();
    expect(Buffer.from(landed!.wire).equals(Buffer.from(good))).toBe(true);
    await sender.close();
  });

  it('the sender and the devnet /fast agree on the tip rule (sum of the transfers to tip accounts)', async () => {
    const sender = createSender({ client: env.client, ...fast });
    const kp = Keypair.fromSecretKey(env.payer.secretKey());
    const { blockhash, lastValidBlockHeight } = await env.client.getLatestBlockhash();
    const mk = (tips: number[]) => {
      const tx = new Transaction({ feePayer: kp.publicKey, blockhash, lastValidBlockHeight });
      tx.add(ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1 }));
      tx.add(SystemProgram.transfer({ fromPubkey: kp.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1_000_000 }));
      tips.forEach((lamports, i) =>
        tx.add(SystemProgram.transfer({ fromPubkey: kp.publicKey, toPubkey: new PublicKey(sender.config.tipAccounts[i]), lamports })),
      );
      tx.sign(kp);
      return new Uint8Array(tx.serialize());
    };
    // two 500,000-lamport tips: accepted by cairn, accepted by the host, executed
    const out = await sender.send({ wire: mk([500_000, 500_000]), lastValidBlockHeight });
    expect(env.devnet.chain.transaction(out.signature)?.err).toBeNull();
    // 400,000 + 500,000: refused by cairn before sending, and the host refuses the same bytes
    const short = mk([400_000, 500_000]);
    env.devnet.control.clearRequestLog();
    await expect(sender.send({ wire: short })).rejects.toMatchObject({ code: 'SENDER_MISSING_TIP', message: /900000 lamports/ });
    expect(env.devnet.control.requestLog().filter((e) => e.endpoint === 'fast')).toHaveLength(0);
    await expect(env.client.sendTransaction(short)).rejects.toMatchObject({ message: /tip/ });
    await sender.close();
  });

  it('abort stops rebroadcasts and polling at once; close() leaves no timer or socket', async () => {
    const resources = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout' || r === 'TCPSocketWrap').length;
    await sleep(100);
    const client = (await import('../../src/rpc/client/create-client.js')).createClient({ url: env.devnet.url });
    const baseline = resources();
    const sender = createSender({ client, ...fast, rebroadcastMs: 100 });
    env.devnet.control.setFaults('fast', { dropRate: 1 });
    try {
      const ac = new AbortController();
      const sent = new Promise<void>((r) => sender.on('sent', () => r()));
      const p = sender.send(
        { instructions: [transferInstruction(env.payer.address, generateSigner().address, 1_000_000n)], payer: env.payer },
        { signal: ac.signal },
      );
      await sent;
      await sleep(250); // a couple of rebroadcasts and ticks
      const t0 = performance.now();
      ac.abort(new Error('user stop'));
      await expect(p).rejects.toMatchObject({ code: 'SENDER_ABORTED' });
      expect(performance.now() - t0).toBeLessThan(100);
      const count = () => env.devnet.control.requestLog().filter((e) => e.endpoint === 'fast' || e.method === 'getSignatureStatuses').length;
      await sleep(50);
      const before = count();
      await sleep(500);
      expect(count()).toBe(before);
    } finally {
      env.devnet.control.setFaults('fast', {});
    }
    await sender.close();
    await client.close();
    await sleep(100);
    expect(resources()).toBeLessThanOrEqual(baseline);
    await expect(sender.send({ instructions: [], payer: env.payer })).rejects.toMatchObject({ code: 'SENDER_CLOSED' });
  });

  it('the same signed bytes under a second id are refused (one transaction is one payment); aborting one intent leaves another alive, and each abort and close() are prompt', async () => {
    const sender = createSender({ client: env.client, ...fast, rebroadcastMs: 100 });
    const kp = Keypair.fromSecretKey(env.payer.secretKey());
    const { blockhash, lastValidBlockHeight } = await env.client.getLatestBlockhash();
    const signedTransfer = (): Uint8Array => {
      const tx = new Transaction({ feePayer: kp.publicKey, blockhash, lastValidBlockHeight });
      tx.add(ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1 }));
      tx.add(SystemProgram.transfer({ fromPubkey: kp.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1_000_000 }));
      tx.add(SystemProgram.transfer({ fromPubkey: kp.publicKey, toPubkey: new PublicKey(sender.config.tipAccounts[0]), lamports: 1_000_000 }));
      tx.sign(kp);
      return new Uint8Array(tx.serialize());
    };
    const wire = signedTransfer();
    env.devnet.control.setFaults('fast', { dropRate: 1 });
    try {
      const acA = new AbortController();
      const acB = new AbortController();
      const a = sender.send({ wire, lastValidBlockHeight }, { id: 'a', signal: acA.signal });
      // the same bytes under another id would be a second "payment" sharing a's only transaction
      await expect(sender.send({ wire, lastValidBlockHeight }, { id: 'a2' })).rejects.toMatchObject({ code: 'INPUT_INVALID', context: { field: 'input.wire' } });
      const b = sender.send({ wire: signedTransfer(), lastValidBlockHeight }, { id: 'b', signal: acB.signal });
      let bSettled = false;
      b.then(
        () => (bSettled = true),
        () => (bSettled = true),
      );
      await sleep(300);
      acA.abort(new Error('stop a'));
      await expect(a).rejects.toMatchObject({ code: 'SENDER_ABORTED', context: { id: 'a', mayLand: true } });
      await sleep(300);
      expect(bSettled).toBe(false); // 'b' still tracks (and rebroadcasts) its own signature
      expect(sender.stats.inFlight).toBe(1);
      const t0 = performance.now();
      acB.abort(new Error('stop b'));
      await expect(b).rejects.toMatchObject({ code: 'SENDER_ABORTED' });
      expect(performance.now() - t0).toBeLessThan(200);
      // and with two intents alive, close() rejects both and returns at once
      const c = sender.send({ wire: signedTransfer(), lastValidBlockHeight }, { id: 'c' });
      const d = sender.send({ wire: signedTransfer(), lastValidBlockHeight }, { id: 'd' });
      await sleep(200);
      const t1 = performance.now();
      await sender.close();
      expect(performance.now() - t1).toBeLessThan(500);
      await expect(c).rejects.toMatchObject({ code: 'SENDER_ABORTED' });
      await expect(d).rejects.toMatchObject({ code: 'SENDER_ABORTED' });
      expect(sender.stats.inFlight).toBe(0);
    } finally {
      env.devnet.control.setFaults('fast', {});
      await sender.close();
    }
  });

  it('an id is an idempotency key: the same id twice lands once', async () => {
    const sender = createSender({ client: env.client, ...fast });
    const to = generateSigner().address;
    const input = { instructions: [transferInstruction(env.payer.address, to, 1_000_000_000n)], payer: env.payer };
    const [a, b] = await Promise.all([sender.send(input, { id: 'order-1' }), sender.send(input, { id: 'order-1' })]);
    expect(a.signature).toBe(b.signature);
    expect(executedTo(to)).toHaveLength(1);
    await sender.close();
  });

  it('unsigned web3.js Transaction and VersionedTransaction: cairn adds CU price and tip, signs, lands', async () => {
    const sender = createSender({ client: env.client, ...fast });
    const kp = Keypair.fromSecretKey(env.payer.secretKey());
    const to = Keypair.generate().publicKey;
    const legacy = new Transaction().add(SystemProgram.transfer({ fromPubkey: kp.publicKey, toPubkey: to, lamports: 1_000_000_000 }));
    legacy.feePayer = kp.publicKey;
    const a = await sender.send({ transaction: legacy, signers: [kp] });
    const msg = new TransactionMessage({
      payerKey: kp.publicKey,
      recentBlockhash: '11111111111111111111111111111111',
      instructions: [SystemProgram.transfer({ fromPubkey: kp.publicKey, toPubkey: to, lamports: 2_000_000_000 })],
    }).compileToV0Message();
    const b = await sender.send({ transaction: new VersionedTransaction(msg), signers: [kp] });
    for (const s of [a.signature, b.signature]) {
      const tx = env.devnet.chain.transaction(s)!;
      expect(tx.err).toBeNull();
      expect(tx.computeUnitPrice).toBe(200_000);
    }
    expect(env.devnet.chain.balance(to.toBase58())).toBe(3_000_000_000n);
    await sender.close();
  });

  it('swqos_only uses the lower minimum tip; simulated CU limit and estimated CU price by default', async () => {
    const sender = createSender({ client: env.client, pollMs: 50, swqosOnly: true });
    const to = generateSigner().address;
    const out = await sender.send({ instructions: [transferInstruction(env.payer.address, to, 1_000_000_000n)], payer: env.payer });
    const tx = env.devnet.chain.transaction(out.signature)!;
    const tips = sender.config.tipAccounts.map((t) => transferTo(tx.wire, addressBytes(t, 't'))).filter((x) => x !== undefined);
    expect(tips).toEqual([5_000n]);
    // CU limit = simulated units × 1.1 (at least 1,000), far below the 200k default
    const { parts } = (await import('../../src/solana/index.js')).parseTransaction(tx.wire);
    const limitIx = parts.instructions.find((ix) => ix.data[0] === 2 && ix.data.length === 5)!;
    const limit = new DataView(limitIx.data.buffer, limitIx.data.byteOffset, 5).getUint32(1, true);
    expect(limit).toBeGreaterThanOrEqual(1_000);
    expect(limit).toBeLessThan(10_000);
    expect(tx.computeUnitsConsumed).toBeLessThanOrEqual(limit);
    expect(tx.computeUnitPrice).toBeGreaterThan(0);
    expect(env.devnet.control.requestLog().some((e) => e.method === 'sendTransaction' && e.endpoint === 'fast')).toBe(true);
    await sender.close();
  });

  it('bad input gives typed errors naming the field', async () => {
    const sender = createSender({ client: env.client, ...fast });
    await expect(sender.send({ instructions: [], payer: env.payer })).rejects.toMatchObject({ code: 'INPUT_INVALID', message: /input\.instructions/ });
    await expect(sender.send({ instructions: [transferInstruction(env.payer.address, env.payer.address, 1)], payer: new Uint8Array(3) })).rejects.toMatchObject(
      {
        message: /input\.payer/,
      },
    );
    await expect(sender.send(42 as never)).rejects.toMatchObject({ code: 'INPUT_INVALID' });
    expect(() => createSender({ client: env.client, tip: 1 })).toThrowError(/"tip"/);
    expect(() => createSender({ client: env.client, cuPrice: { estimate: 'Huge' as never } })).toThrowError(/"cuPrice"/);
    expect(() => createSender({ client: env.client, rebroadcastMs: -1 })).toThrowError(/"rebroadcastMs"/);
    const it1 = sender.sendMany([{ instructions: [], payer: env.payer }]);
    const first = await it1.next();
    expect(first.value).toMatchObject({ index: 0, ok: false });
    expect((first.value as { error: CairnError }).error.code).toBe('INPUT_INVALID');
    await sender.close();
  });
});

describe('sender and the /fast host', () => {
  it('a 400 from /fast fails fast with the host message (SENDER_REJECTED), nothing left live', async () => {
    // cairn's own minimum set below the host's: the bytes pass the local check, the host refuses them
    const sender = createSender({ client: env.client, ...fast, minTipLamports: { dual: 1_000 }, tip: 1_000 });
    const err = await sender
      .send({ instructions: [transferInstruction(env.payer.address, generateSigner().address, 1_000_000_000n)], payer: env.payer })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'SENDER_REJECTED' });
    expect((err as Error).message).toMatch(/tip/i);
    expect(sender.stats.inFlight).toBe(0);
    expect(sender.stats.tracker.ticks).toBe(0);
    await sender.close();
  });

  it('429s from /fast are waited out (Retry-After) and every send still lands', async () => {
    const sender = createSender({ client: env.client, ...fast });
    env.devnet.control.clearRequestLog();
    env.devnet.control.setFaults('fast', { rateLimitRate: 0.3, retryAfterSeconds: 1 });
    try {
      const to = generateSigner().address;
      await env.devnet.control.airdrop(to, 10n ** 9n);
      const inputs = Array.from({ length: 6 }, (_, i) => ({ instructions: [transferInstruction(env.payer.address, to, 30_000 + i)], payer: env.payer }));
      for await (const r of sender.sendMany(inputs)) if (!r.ok) throw r.error;
      expect(executedTo(to).filter((x) => x.lamports !== 10n ** 9n)).toHaveLength(6);
    } finally {
      env.devnet.control.setFaults('fast', {});
    }
    expect(env.devnet.control.requestLog().some((e) => e.endpoint === 'fast' && e.status === 429)).toBe(true);
    await sender.close();
  });

  it('rankSenders orders hosts by /ping time; warmMs pings while idle and stops on close', async () => {
    const { rankSenders } = await import('../../src/sender/index.js');
    const ranked = await rankSenders(['http://127.0.0.1:1', env.devnet.url], { samples: 2, timeoutMs: 500 });
    expect(ranked[0].url).toBe(env.devnet.url);
    expect(ranked[0].rttMs).toBeLessThan(500);
    expect(ranked[1].rttMs).toBe(Infinity);
    // a sender that picks its /fast host by /ping among candidates (one of them dead) still lands
    const picky = createSender({ url: env.devnet.url, senderUrls: ['http://127.0.0.1:1', env.devnet.url], ...fast });
    const out = await picky.send({ instructions: [transferInstruction(env.payer.address, generateSigner().address, 1_000_000_000n)], payer: env.payer });
    expect(env.devnet.chain.transaction(out.signature)?.err).toBeNull();
    await picky.close();
    expect(() => createSender({ url: env.devnet.url, region: 'mars' })).toThrowError(/"region"/);
    env.devnet.control.clearRequestLog();
    const sender = createSender({ client: env.client, ...fast, warmMs: 50 });
    await sleep(300);
    const pings = () => env.devnet.control.requestLog().filter((e) => e.endpoint === 'ping').length;
    expect(pings()).toBeGreaterThanOrEqual(2);
    await sender.close();
    await sleep(20);
    const n = pings();
    await sleep(200);
    expect(pings()).toBe(n);
  });

  it('close() during the /ping region choice returns at once, and no ping leaves after it', async () => {
    const http = await import('node:http');
    // a /fast host that takes its time to answer /ping (a far region, or a congested one)
    let pings = 0;
    const slow = http.createServer((req, res) => {
      if (req.url?.startsWith('/ping')) pings++;
      setTimeout(() => res.end('ok'), 2_000).unref();
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(slow.address() as import('node:net').AddressInfo).port}`;
    try {
      const sender = createSender({ url: env.devnet.url, senderUrls: [url], ...fast });
      while (pings === 0) await sleep(10);
      const t0 = performance.now();
      await sender.close();
      expect(performance.now() - t0).toBeLessThan(300);
      const n = pings;
      await sleep(2_500); // longer than one held /ping: a sample loop still running would send the next
      expect(pings).toBe(n);
    } finally {
      slow.closeAllConnections();
      await new Promise((r) => slow.close(r));
    }
  }, 20_000);
});

describe('cairn send (CLI)', () => {
  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    return {
      out,
      err,
      io: { stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => err.push(s) }, env: {}, signal: new AbortController().signal },
    };
  };

  it('sends with a fresh airdropped keypair on a loopback devnet, and with a keypair file', async () => {
    const { run } = await import('../../src/cli/send.js');
    const to = generateSigner().address;
    const a = io();
    expect(await run(['--to', to, '--lamports', '2000000000', '--url', env.devnet.url, '--cu-price', '1000', '--cu-limit', '1000', '--json'], a.io)).toBe(0);
    const out = JSON.parse(a.out.join('')) as { signature: string; commitment: string };
    expect(out.commitment).toBe('confirmed');
    expect(env.devnet.chain.transaction(out.signature)?.err).toBeNull();
    const { writeFileSync, mkdtempSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const kpDir = mkdtempSync(join(tmpdir(), 'cairn-kp-'));
    const file = join(kpDir, 'id.json');
    writeFileSync(file, JSON.stringify([...env.payer.secretKey()]));
    const b = io();
    try {
      expect(await run([`--to=${to}`, '--lamports=1000000000', '--keypair', file, '--url', env.devnet.url, '--swqos-only', '--cu-limit', '1000'], b.io)).toBe(0);
    } finally {
      rmSync(kpDir, { recursive: true, force: true });
    }
    expect(b.out.join('')).toMatch(/confirmed in slot \d+/);
    expect(env.devnet.chain.balance(to)).toBe(3_000_000_000n);
  });

  it('bad usage exits 2 naming the flag', async () => {
    const { run } = await import('../../src/cli/send.js');
    const c = io();
    expect(await run(['--lamports', '5'], c.io)).toBe(2);
    expect(c.err.join('')).toMatch(/"--to"/);
    const d = io();
    expect(await run(['--to', 'nope', '--lamports', '5'], d.io)).toBe(2);
    expect(d.err.join('')).toMatch(/"--to"/);
    const e = io();
    expect(await run(['--to', generateSigner().address, '--lamports', '-5'], e.io)).toBe(2);
    expect(e.err.join('')).toMatch(/"--lamports"/);
    const f = io();
    expect(await run(['--to', generateSigner().address, '--lamports', '5', '--url', 'http://example.invalid:1'], f.io)).toBe(2);
    expect(f.err.join('')).toMatch(/"--keypair"/);
  });
});
