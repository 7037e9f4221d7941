// `--ledger DIR` restarted keeps what the devnet derives from its transactions and what a user set
// up on it, not only the accounts: the DAS token-account index (`getTokenAccounts`), the wallet
// transfer history (`GET /v1/wallet/{wallet}/transfers`, SOL and SPL) and the registered webhooks,
// each read back over HTTP after a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { generateSigner, transferInstruction } from '../../src/sender/index.js';
import { newAddress, rpc } from '../support/devnet.js';
import { sendAndWait, setUpToken } from '../support/spl.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-ledger-idx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const call = async (d: Devnet, method: string, params: unknown): Promise<any> => {
  const r = await rpc(d.url, method, params);
  expect(r.body.error, `${method}: ${JSON.stringify(r.body.error)}`).toBeUndefined();
  return r.body.result;
};

type Transfer = { signature: string; direction: string; counterparty: string; mint: string; amountRaw: string };
const transfers = async (d: Devnet, wallet: string): Promise<Transfer[]> => {
  const r = await fetch(`${d.url}/v1/wallet/${wallet}/transfers?limit=100`);
  expect(r.status).toBe(200);
  return ((await r.json()) as { data: never[] }).data;
};

describe('devnet ledger: derived indexes and webhooks across a restart', () => {
  it('keeps the token-account index, the wallet transfer history and the webhooks', async () => {
    const payer = generateSigner();
    const to = newAddress();
    let devnet = await startDevnet({ slotMs: 20, ledger: dir, fundedAccounts: [{ address: payer.address, lamports: 10n ** 9n }] });
    let tokens: Awaited<ReturnType<typeof setUpToken>>;
    let before: { accounts: unknown; payer: Transfer[]; to: Transfer[]; hookId: string };
    try {
      tokens = await setUpToken(devnet.url, payer);
      await sendAndWait(devnet.url, payer, [transferInstruction(payer.address, to, 7_000_000n)]);
      const hook = devnet.control.createWebhook({ webhookURL: 'http://127.0.0.1:9/hook', accountAddresses: [to], webhookType: 'raw' });
      before = {
        accounts: (await call(devnet, 'getTokenAccounts', { owner: payer.address })).token_accounts,
        payer: await transfers(devnet, payer.address),
        to: await transfers(devnet, to),
        hookId: hook.webhookID,
      };
      // what there is to keep: a's token account, an SPL and a SOL transfer out of the payer, one in to `to`
      expect(before.accounts).toEqual([expect.objectContaining({ address: tokens.a.address, owner: payer.address, amount: 1_000_000 })]);
      expect(before.payer).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ direction: 'out', counterparty: to, amountRaw: '7000000' }),
          expect.objectContaining({ direction: 'out', counterparty: tokens.ownerB.address, mint: tokens.mint.address, amountRaw: '500000' }),
        ]),
      );
      expect(before.to).toEqual([expect.objectContaining({ direction: 'in', counterparty: payer.address })]);
    } finally {
      await devnet.stop();
    }

    devnet = await startDevnet({ slotMs: 20, ledger: dir });
    try {
      expect((await call(devnet, 'getTokenAccounts', { owner: payer.address })).token_accounts).toEqual(before.accounts);
      expect((await call(devnet, 'getTokenAccounts', { owner: tokens.ownerB.address })).token_accounts).toEqual([
        expect.objectContaining({ address: tokens.b.address, mint: tokens.mint.address, amount: 500_000 }),
      ]);
      expect(await transfers(devnet, payer.address)).toEqual(before.payer);
      expect(await transfers(devnet, to)).toEqual(before.to);
      const hooks = await (await fetch(`${devnet.url}/v0/webhooks`)).json();
      expect(hooks).toEqual([expect.objectContaining({ webhookID: before.hookId, webhookURL: 'http://127.0.0.1:9/hook', accountAddresses: [to] })]);
      // the history goes on from where it was: a new transfer is listed first, the old ones after it
      await sendAndWait(devnet.url, payer, [transferInstruction(payer.address, to, 1_000n)]);
      const now = await transfers(devnet, to);
      expect(now).toHaveLength(2);
      expect(now[0]).toMatchObject({ amountRaw: '1000' });
      expect(now[1]).toEqual(before.to[0]);
    } finally {
      await devnet.stop();
    }
  }, 60_000);
});
