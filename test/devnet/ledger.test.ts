// `--ledger DIR` (startDevnet's `ledger`): a devnet stopped and started again on the same directory
// keeps balances, cNFTs and compressed accounts, as seen through JSON-RPC; a bad file is refused
// naming it; `reset` starts from genesis.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { isCairnError } from '../../src/errors/index.js';
import { buildTx, newAddress, newKeypair, rpc, waitFor } from '../support/devnet.js';

const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'cairn-ledger-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const call = async (d: Devnet, method: string, params: unknown): Promise<any> => {
  const r = await rpc(d.url, method, params);
  expect(r.body.error, `${method}: ${JSON.stringify(r.body.error)}`).toBeUndefined();
  return r.body.result;
};

describe('devnet ledger', () => {
  it('restarted on the same directory keeps balances, assets and compressed accounts', async () => {
    const dir = tmp();
    const payer = newKeypair();
    const to = newAddress();
    const owner = newAddress();
    let devnet = await startDevnet({ slotMs: 20, ledger: dir, fundedAccounts: [{ address: payer.address, lamports: 10n ** 9n }] });
    let transferSig: string, assetId: string, hash: string, faucet: string, slot: number;
    try {
      faucet = devnet.chain.faucet.address;
      const { blockhash } = (await call(devnet, 'getLatestBlockhash', [])).value;
      transferSig = await call(devnet, 'sendTransaction', [buildTx({ payer, to, lamports: 5_000_000, blockhash }).toString('base64'), { encoding: 'base64' }]);
      await waitFor(() => devnet.chain.status(transferSig)?.confirmationStatus === 'confirmed');
      assetId = (await call(devnet, 'mintCompressedNft', { name: 'Kept', symbol: 'K', description: '', owner, confirmTransaction: true })).assetId;
      hash = (await devnet.compression!.createCompressedAccount({ owner, lamports: 42n })).account.hash as string;
      expect((await call(devnet, 'getBalance', [to])).value).toBe(5_000_000);
      slot = devnet.chain.slot();
    } finally {
      await devnet.stop();
    }

    devnet = await startDevnet({ slotMs: 20, ledger: dir });
    try {
      expect(devnet.chain.faucet.address).toBe(faucet);
      expect(devnet.chain.slot()).toBeGreaterThanOrEqual(slot);
      expect((await call(devnet, 'getBalance', [to])).value).toBe(5_000_000);
      expect((await call(devnet, 'getBalance', [payer.address])).value).toBe(10 ** 9 - 5_000_000 - 5000);
      const st = (await call(devnet, 'getSignatureStatuses', [[transferSig]])).value[0];
      expect(st).toMatchObject({ err: null });
      const asset = await call(devnet, 'getAsset', { id: assetId });
      expect(asset).toMatchObject({ id: assetId, ownership: { owner } });
      const byOwner = await call(devnet, 'getAssetsByOwner', { ownerAddress: owner });
      expect(byOwner.items.map((a: { id: string }) => a.id)).toEqual([assetId]);
      const proof = await call(devnet, 'getAssetProof', { id: assetId });
      expect(proof.tree_id).toBe(asset.compression.tree);
      const acc = (await call(devnet, 'getCompressedAccount', { hash })).value;
      expect(acc).toMatchObject({ hash, lamports: 42 });
      const byOwnerZk = (await call(devnet, 'getCompressedAccountsByOwner', { owner })).value.items;
      expect(byOwnerZk.map((a: { hash: string }) => a.hash)).toEqual([hash]);
      // The restored state keeps working: a new mint lands next to the saved one.
      const next = (await call(devnet, 'mintCompressedNft', { name: 'More', symbol: 'M', description: '', owner, confirmTransaction: true })).assetId;
      const after = await call(devnet, 'getAssetsByOwner', { ownerAddress: owner });
      expect(after.items.map((a: { id: string }) => a.id).sort()).toEqual([assetId, next].sort());
      await devnet.compression!.createCompressedAccount({ owner, lamports: 1n });
    } finally {
      await devnet.stop();
    }

    devnet = await startDevnet({ slotMs: 20, ledger: dir, reset: true });
    try {
      expect((await call(devnet, 'getBalance', [to])).value).toBe(0);
      expect((await call(devnet, 'getCompressedAccountsByOwner', { owner })).value.items).toEqual([]);
    } finally {
      await devnet.stop();
    }
  }, 60_000);

  it('saves on its own shortly after a transaction (a crash keeps it), whole and without a temp file left', async () => {
    const dir = tmp();
    const devnet = await startDevnet({ slotMs: 20, ledger: dir });
    try {
      const to = newAddress();
      await devnet.control.airdrop(to, 777n);
      const file = join(dir, 'ledger.json');
      const saved = await waitFor(() => {
        try {
          const text = readFileSync(file, 'utf8');
          return text.includes(to) ? text : null;
        } catch {
          return null;
        }
      }, 10_000);
      expect(JSON.parse(saved)).toMatchObject({ format: 'cairn-devnet-ledger', version: 1 });
      expect(existsSync(`${file}.tmp`)).toBe(false);
    } finally {
      await devnet.stop();
    }
  });

  it('refuses a corrupt or other-version ledger, naming the file, and starts nothing', async () => {
    const dir = tmp();
    const file = join(dir, 'ledger.json');
    writeFileSync(file, '{"format":"cairn-devnet-ledger","version":1,"state":{"seed":1');
    const e1 = await startDevnet({ ledger: dir }).catch((e: unknown) => e);
    expect(isCairnError(e1) && e1.code).toBe('INPUT_INVALID');
    expect((e1 as Error).message).toContain(file);
    writeFileSync(file, JSON.stringify({ format: 'cairn-devnet-ledger', version: 99, state: {} }));
    const e2 = await startDevnet({ ledger: dir }).catch((e: unknown) => e);
    expect((e2 as Error).message).toMatch(/unknown ledger version 99/);
    expect((e2 as Error).message).toContain(file);
    // The refused file is left as it was.
    expect(JSON.parse(readFileSync(file, 'utf8')).version).toBe(99);
  });
});
