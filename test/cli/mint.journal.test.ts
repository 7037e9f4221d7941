/**
 * `cairn mint --file items.json --journal FILE` (issue 36): each item is minted once — its id from the
 * item's `id` or its position — under lost answers; a second run mints nothing and reports every item
 * as already minted; flags that need one another are refused naming the flag.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/mint.js';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { createClient } from '../../src/rpc/client/create-client.js';
import { newAddress } from '../support/devnet.js';

let devnet: Devnet;
let dir: string;

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await run(argv, { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) } });
  return { code, out, err };
}

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, slotMs: 20, seed: 364, wsPortPlusOne: false });
  dir = mkdtempSync(join(tmpdir(), 'cairn-mint-journal-'));
});
afterAll(async () => {
  await devnet?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('cairn mint --journal', () => {
  it('mints every item once under lost answers; a second run sends no mint', async () => {
    const owner = newAddress();
    const items = Array.from({ length: 12 }, (_, i) => ({ ...(i % 3 === 0 ? { id: `item-${i}` } : {}), name: `J #${i}`, symbol: 'J', description: '', owner }));
    const file = join(dir, 'items.json');
    const journal = join(dir, 'mints.jsonl');
    writeFileSync(file, JSON.stringify(items));
    devnet.control.setFaults('rpc', { lostRate: 0.25 });
    // at this rate a reconciliation's reads may all be lost too: such an item is reported "outcome
    // unknown" (exit 1), and running the same command again settles it, as a user would
    let reconciled = 0;
    let code = 1;
    for (let run = 0; run < 6 && code !== 0; run++) {
      const r = await cli(['--file', file, '--journal', journal, '--url', devnet.url, '--no-verify', '--landing-slots', '5', '--json']);
      code = r.code;
      const report = JSON.parse(r.out) as { failed: number; items: { reconciled?: boolean }[] };
      expect(report.failed, r.out.slice(0, 2000)).toBe(0);
      reconciled += report.items.filter((x) => x.reconciled).length;
    }
    devnet.control.setFaults('rpc', {});
    expect(code).toBe(0);
    expect(reconciled).toBeGreaterThan(0);
    const second = await cli(['--file', file, '--journal', journal, '--url', devnet.url, '--no-verify']);
    expect(second.code, second.err).toBe(0);
    expect(second.out.match(/already minted: journal/g)).toHaveLength(12);
    const client = createClient({ url: devnet.url, logger: () => {} });
    try {
      const names = (await client.getAssetsByOwner({ ownerAddress: owner, limit: 1000 })).items.map((a) => a.content?.metadata?.name);
      expect(names.sort()).toEqual(items.map((x) => x.name).sort());
    } finally {
      await client.close();
    }
  });

  it('refuses --journal without --file, a repeated id, and --landing-slots without --journal, naming the flag', async () => {
    const file = join(dir, 'dup.json');
    writeFileSync(file, JSON.stringify([{ id: 'a', name: 'A', symbol: 'A', description: '', owner: newAddress() }, { id: 'a', name: 'B', symbol: 'B', description: '', owner: newAddress() }]));
    const a = await cli(['--name', 'A', '--symbol', 'A', '--owner', newAddress(), '--journal', join(dir, 'x.jsonl'), '--url', devnet.url]);
    expect(a.code).toBe(2);
    expect(a.err).toMatch(/--journal/);
    const b = await cli(['--file', file, '--journal', join(dir, 'y.jsonl'), '--url', devnet.url]);
    expect(b.code).toBe(2);
    expect(b.err).toMatch(/id "a" is used twice/);
    const ok = join(dir, 'ok.json');
    writeFileSync(ok, JSON.stringify([{ name: 'A', symbol: 'A', description: '', owner: newAddress() }]));
    const c = await cli(['--file', ok, '--landing-slots', '5', '--url', devnet.url]);
    expect(c.code).toBe(2);
    expect(c.err).toMatch(/--landing-slots/);
  });
});
