/**
 * Durable-nonce intents against the real devnet (LiteSVM runs the System program's nonce
 * instructions; the devnet accepts a nonce value as a blockhash as a validator does) and, for the
 * fleet, a real PostgreSQL server: a nonce intent lands with AdvanceNonceAccount first and its nonce
 * as blockhash, journaled without a window; its signed bytes still land past 150 blocks; a fleet
 * process that died after journaling them leaves them to another, which rebroadcasts the SAME bytes
 * and they land once; a nonce moved by someone else proves the bytes dead, so the intent is
 * re-signed with the new value and lands exactly once; and the fleet's `retry(id)` reopens such an
 * intent once however many processes retry it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection } from '@solana/web3.js';
import { createSolanaRpc } from '@solana/kit';
import { createSender, generateSigner, openPostgresJournal, readJournal, resolveSenderConfig, transferInstruction, type Signer } from '../../src/sender/index.js';
import { computeUnitLimitInstruction, computeUnitPriceInstruction } from '../../src/solana/instructions.js';
import { advanceNonceInstruction, createNonceAccountInstructions, parseNonceAccount } from '../../src/solana/nonce.js';
import { encodeBase58 } from '../../src/solana/base58.js';
import { addressBytes } from '../../src/solana/address.js';
import { compileMessage, parseTransaction, signMessageParts } from '../../src/solana/index.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';
import { setup, transferTo, type Env } from '../support/sender.js';

let env: Env;
let server: PostgresServer | undefined;
const dir = mkdtempSync(join(tmpdir(), 'cairn-nonce-'));
const fast = { cuPrice: 200_000, cuLimit: 1_000, pollMs: 50, rebroadcastMs: 200 } as const;
const tipAccounts = resolveSenderConfig({}).tipAccounts;

beforeAll(async () => {
  env = await setup(40, 11);
  for (const t of tipAccounts) await env.devnet.control.airdrop(t, 10n ** 9n);
}, 60_000);
afterAll(async () => {
  await env?.stop();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A fresh nonce account under `authority`, created through an ordinary send. */
async function nonceAccount(authority: Signer): Promise<string> {
  const key = generateSigner();
  const sender = createSender({ client: env.client, ...fast });
  const lamports = env.devnet.chain.minimumBalanceForRentExemption(80);
  await sender.send({
    instructions: createNonceAccountInstructions({ from: env.payer.address, nonce: key.address, authority: authority.address, lamports }),
    payer: env.payer,
    signers: [key],
  });
  await sender.close();
  return key.address;
}

const nonceValue = (account: string): string => parseNonceAccount(env.devnet.chain.account(account)!.data).nonce!;

/** Executions on the ledger paying `to` (successful ones). */
const paid = (to: string) => env.devnet.control.ledger().filter((tx) => tx.err === null && transferTo(tx.wire, addressBytes(to, 'to')) !== undefined);

/** Wait until the devnet's slot reaches `slot`, with short slots meanwhile. */
async function fastForward(slot: number): Promise<void> {
  env.devnet.chain.setSlotMs(2);
  try {
    await env.devnet.chain.waitForSlot(slot);
  } finally {
    env.devnet.chain.setSlotMs(40);
  }
}

describe('durable-nonce intents', () => {
  it('land with AdvanceNonceAccount first and the nonce as blockhash; the journal names the nonce, no window', { timeout: 30_000 }, async () => {
    const account = await nonceAccount(env.payer);
    const before = nonceValue(account);
    const journal = join(dir, 'one.jsonl');
    const sender = createSender({ client: env.client, ...fast, journal });
    const to = generateSigner().address;
    const out = await sender.send({ instructions: [transferInstruction(env.payer.address, to, 1_000_000n)], payer: env.payer, nonce: { account, authority: env.payer.address } }, { id: 'n1' });
    await sender.close();
    const { parts } = parseTransaction(env.devnet.chain.transaction(out.signature)!.wire);
    expect(encodeBase58(parts.recentBlockhash)).toBe(before);
    expect(encodeBase58(parts.staticKeys[parts.instructions[0]!.programIdIndex]!)).toBe('11111111111111111111111111111111');
    expect(Array.from(parts.instructions[0]!.data)).toEqual([4, 0, 0, 0]);
    expect(nonceValue(account)).not.toBe(before); // the transaction advanced it
    const signed = readJournal(journal).filter((r) => r.op === 'signed');
    expect(signed).toHaveLength(1);
    expect(signed[0]).toMatchObject({ nonce: { account, value: before } });
    expect(signed[0]).not.toHaveProperty('lastValidBlockHeight');
    expect(env.devnet.chain.balance(to)).toBe(1_000_000n);
    // Bytes signed with the value it held before can never land now (the devnet checks as a validator).
    const stale = signMessageParts(
      compileMessage({
        payer: env.payer.address,
        instructions: [advanceNonceInstruction(account, env.payer.address), transferInstruction(env.payer.address, to, 7n)],
        recentBlockhash: before,
      }),
      [env.payer],
    );
    const { signature } = env.devnet.chain.submit(stale.wire);
    await env.devnet.chain.waitForSlot(env.devnet.chain.slot() + 3);
    expect(env.devnet.chain.status(signature)).toBeNull();
    expect(env.devnet.chain.balance(to)).toBe(1_000_000n);
  });

  it('through a web3.js Connection and a kit Rpc too (their adapters read the nonce accounts)', { timeout: 30_000 }, async () => {
    for (const client of [new Connection(env.devnet.url, 'confirmed'), createSolanaRpc(env.devnet.url)]) {
      const account = await nonceAccount(env.payer);
      const before = nonceValue(account);
      const sender = createSender({ client, ...fast });
      const to = generateSigner().address;
      const out = await sender.send({
        instructions: [transferInstruction(env.payer.address, to, 1_500_000n)],
        payer: env.payer,
        nonce: { account, authority: env.payer },
      });
      await sender.close();
      expect(encodeBase58(parseTransaction(env.devnet.chain.transaction(out.signature)!.wire).parts.recentBlockhash)).toBe(before);
      expect(paid(to).map((tx) => tx.signature)).toEqual([out.signature]);
    }
  });

  it('signed bytes still land after more than 150 blocks, never re-signed', { timeout: 30_000 }, async () => {
    const account = await nonceAccount(env.payer);
    const sender = createSender({ client: env.client, ...fast });
    const to = generateSigner().address;
    let sentAt = -1;
    sender.on('sent', () => {
      sentAt = env.devnet.chain.slot();
    });
    env.devnet.control.setFaults('fast', { dropRate: 1 });
    const p = sender.send({
      instructions: [transferInstruction(env.payer.address, to, 2_000_000n)],
      payer: env.payer,
      nonce: { account, authority: env.payer },
    });
    try {
      while (sentAt < 0) await new Promise((r) => setTimeout(r, 10));
      await fastForward(sentAt + 170);
    } finally {
      env.devnet.control.setFaults('fast', {});
    }
    const out = await p;
    await sender.close();
    expect(out.attempts).toBe(1);
    expect(out.slot).toBeGreaterThan(sentAt + 150);
    expect(paid(to).map((tx) => tx.signature)).toEqual([out.signature]);
  });

  it('an abort after sending says the bytes may land while the nonce holds (no window)', { timeout: 30_000 }, async () => {
    const account = await nonceAccount(env.payer);
    const sender = createSender({ client: env.client, ...fast });
    const ac = new AbortController();
    sender.on('sent', () => ac.abort());
    env.devnet.control.setFaults('fast', { dropRate: 1 });
    try {
      const err = await sender
        .send(
          {
            instructions: [transferInstruction(env.payer.address, generateSigner().address, 6_000_000n)],
            payer: env.payer,
            nonce: { account, authority: env.payer },
          },
          { signal: ac.signal },
        )
        .catch((e: unknown) => e as { code: string; context: Record<string, unknown> });
      expect(err).toMatchObject({ code: 'SENDER_ABORTED', context: { mayLand: true, nonce: { account, value: nonceValue(account) } } });
      expect((err as { context: object }).context).not.toHaveProperty('lastValidBlockHeight');
    } finally {
      env.devnet.control.setFaults('fast', {});
      await sender.close();
    }
  });

  it('a nonce moved by someone else proves the bytes dead: re-signed with the new value, landing exactly once', { timeout: 30_000 }, async () => {
    const account = await nonceAccount(env.payer);
    const first = nonceValue(account);
    const sender = createSender({ client: env.client, ...fast, onExpired: 'resign' });
    const to = generateSigner().address;
    const signatures: string[] = [];
    sender.on('sent', (e) => signatures.push(e.signature));
    const expired: unknown[] = [];
    sender.on('expired', (e) => {
      expired.push(e);
      env.devnet.control.setFaults('fast', {}); // the next attempt gets through
    });
    env.devnet.control.setFaults('fast', { dropRate: 1 });
    try {
      const p = sender.send({
        instructions: [transferInstruction(env.payer.address, to, 3_000_000n)],
        payer: env.payer,
        nonce: { account, authority: env.payer },
      });
      while (signatures.length === 0) await new Promise((r) => setTimeout(r, 10));
      // Someone else advances the nonce (straight into the chain: /fast drops everything now).
      const bh = env.devnet.chain.latestBlockhash().blockhash;
      const other = signMessageParts(
        compileMessage({ payer: env.payer.address, instructions: [advanceNonceInstruction(account, env.payer.address)], recentBlockhash: bh }),
        [env.payer],
      );
      env.devnet.chain.submit(other.wire);
      const out = await p;
      expect(out.attempts).toBe(2);
      expect(expired).toHaveLength(1);
      expect(signatures).toHaveLength(2);
      expect(out.signature).toBe(signatures[1]);
      const landed = paid(to);
      expect(landed.map((tx) => tx.signature)).toEqual([signatures[1]]);
      expect(env.devnet.chain.status(signatures[0]!)).toBeNull();
      // The second attempt signed with the value the other advance left, not the first one.
      const blockhash = encodeBase58(parseTransaction(landed[0]!.wire).parts.recentBlockhash);
      expect(blockhash).not.toBe(first);
    } finally {
      env.devnet.control.setFaults('fast', {});
      await sender.close();
    }
  });

  it('fleet: a process dead after journaling the signed bytes leaves them to another, which rebroadcasts the same bytes once', { timeout: 60_000 }, async () => {
    server ??= await startPostgres();
    const table = 'nonce_fleet';
    const account = await nonceAccount(env.payer);
    const to = generateSigner().address;
    const heir = createSender({ client: env.client, ...fast, journal: { postgres: server.url, table, leaseMs: 1_000, poolSize: 2 }, signers: [env.payer] });
    const ix = transferInstruction(env.payer.address, to, 4_000_000n);
    expect(await heir.enqueue([{ id: 'nf-1', instructions: [ix], payer: env.payer.address, nonce: { account, authority: env.payer.address } }])).toEqual({ added: 1, known: 0 });
    // The dead process: claims, signs with the nonce, journals the bytes and dies before sending them.
    const dead = await openPostgresJournal({ postgres: server.url, table, leaseMs: 300 });
    const [claim] = await dead.claim(1);
    expect(claim!.view.plan?.nonce).toEqual({ account, authority: env.payer.address });
    const value = nonceValue(account);
    const ixs = [
      advanceNonceInstruction(account, env.payer.address),
      computeUnitLimitInstruction(1_000),
      computeUnitPriceInstruction(200_000),
      ix,
      transferInstruction(env.payer.address, tipAccounts[0]!, 1_000_000n),
    ];
    const { wire, signatures } = signMessageParts(compileMessage({ payer: env.payer.address, instructions: ixs, recentBlockhash: value }), [env.payer]);
    const signature = encodeBase58(signatures[0]!);
    await dead.append({ op: 'signed', id: 'nf-1', at: Date.now(), signature, wire: Buffer.from(wire).toString('base64'), nonce: { account, value }, attempt: 1 });
    const deadAt = env.devnet.chain.slot();
    // Past any blockhash window before anyone sends them: only a durable nonce keeps them valid.
    await fastForward(deadAt + 160);
    let items = await heir.resume();
    for (let i = 0; i < 20 && items.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100)); // until the dead claim's lease lapsed
      items = await heir.resume();
    }
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ id: 'nf-1', ok: true, outcome: { signature, attempts: 1 } });
    expect(heir.stats.fleet.takeovers).toBe(1);
    expect(paid(to).map((tx) => tx.signature)).toEqual([signature]);
    expect((await heir.status('nf-1'))?.state).toBe('confirmed');
    await heir.close();
    await dead.close();
  });

  it('fleet retry(id): a nonce intent proven expired is reopened by one of two processes retrying it, and lands once', { timeout: 60_000 }, async () => {
    server ??= await startPostgres();
    const journal = { postgres: server.url, table: 'nonce_retry', leaseMs: 2_000, poolSize: 2 };
    const [a, b] = [0, 1].map(() => createSender({ client: env.client, ...fast, journal, signers: [env.payer] }));
    const account = await nonceAccount(env.payer);
    const to = generateSigner().address;
    const signatures: string[] = [];
    a.on('sent', (e) => signatures.push(e.signature));
    env.devnet.control.setFaults('fast', { dropRate: 1 });
    let failed: unknown;
    try {
      const p = a.send({ instructions: [transferInstruction(env.payer.address, to, 5_000_000n)], payer: env.payer, nonce: { account, authority: env.payer } }, { id: 'nr-1' });
      while (signatures.length === 0) await new Promise((r) => setTimeout(r, 10));
      const bh = env.devnet.chain.latestBlockhash().blockhash;
      env.devnet.chain.submit(
        signMessageParts(
          compileMessage({ payer: env.payer.address, instructions: [advanceNonceInstruction(account, env.payer.address)], recentBlockhash: bh }),
          [env.payer],
        ).wire,
      );
      failed = await p.catch((e: unknown) => e);
    } finally {
      env.devnet.control.setFaults('fast', {});
    }
    expect(failed).toMatchObject({ code: 'SENDER_BLOCKHASH_EXPIRED', context: { nonce: { account } } });
    expect((await a.status('nr-1'))?.state).toBe('failed');
    const [x, y] = await Promise.all([a.retry('nr-1'), b.retry('nr-1')]);
    expect(x.signature).toBe(y.signature);
    expect(x.signature).not.toBe(signatures[0]);
    expect(paid(to).map((tx) => tx.signature)).toEqual([x.signature]);
    await expect(b.retry('nr-1')).rejects.toMatchObject({ code: 'INPUT_INVALID', context: { field: 'id' } }); // landed: a retry would pay twice
    await a.close();
    await b.close();
  });
});
