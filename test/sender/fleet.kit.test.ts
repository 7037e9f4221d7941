/**
 * A fleet's `enqueue` takes kit instructions as `send` does (issue 31 item 4): read into the stored
 * plan at the boundary, worked by a sender holding the payer's key, landed once; a kit lookup meta
 * without its table is refused naming the intent's field. Real PostgreSQL and the devnet.
 */
import { AccountRole, address, type Instruction } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CairnError } from '../../src/errors/index.js';
import { createSender, generateSigner, type FleetSender } from '../../src/sender/index.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';
import { setup, type Env } from '../support/sender.js';

const SYSTEM = address('11111111111111111111111111111111');
let server: PostgresServer;
let env: Env;
let fleet: FleetSender;

const u64 = (v: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, v, true);
  return b;
};

beforeAll(async () => {
  [server, env] = await Promise.all([startPostgres(), setup(40, 17)]);
  fleet = createSender({ client: env.client, journal: { postgres: server.url, table: 'kit_fleet', leaseMs: 5_000, poolSize: 2 }, cuPrice: 200_000, cuLimit: 1_000, pollMs: 50, rebroadcastMs: 300, signers: [env.payer] });
}, 60_000);
afterAll(async () => {
  await fleet?.close();
  await env?.stop();
  await server?.stop();
});

describe('fleet enqueue with kit instructions', () => {
  it('stores, works and lands a kit transfer once', { timeout: 60_000 }, async () => {
    const to = generateSigner().address;
    const kitTransfer: Instruction = {
      programAddress: SYSTEM,
      accounts: [{ address: address(env.payer.address), role: AccountRole.WRITABLE_SIGNER }, { address: address(to), role: AccountRole.WRITABLE }],
      data: Uint8Array.from([2, 0, 0, 0, ...u64(1_234_567n)]),
    };
    expect(await fleet.enqueue([{ id: 'kit-1', instructions: [kitTransfer], payer: env.payer.address }])).toEqual({ added: 1, known: 0 });
    const done = await fleet.work({ concurrency: 1, drain: true });
    expect(done.confirmed).toBe(1);
    expect(env.devnet.chain.balance(to)).toBe(1_234_567n);
    expect(await fleet.status('kit-1')).toMatchObject({ state: 'confirmed' });
  });

  it('refuses a kit lookup meta without its table, naming the intent', async () => {
    const table = generateSigner().address;
    const looked: Instruction = {
      programAddress: SYSTEM,
      accounts: [{ address: address(generateSigner().address), role: AccountRole.READONLY, lookupTableAddress: address(table), addressIndex: 0 }],
    };
    const e = await fleet.enqueue([{ id: 'kit-2', instructions: [looked], payer: env.payer.address, version: 0 }]).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CairnError);
    expect((e as CairnError<'INPUT_INVALID'>).context.field).toBe('intents[0].lookupTables');
    expect(await fleet.status('kit-2')).toBeUndefined();
  });
});
