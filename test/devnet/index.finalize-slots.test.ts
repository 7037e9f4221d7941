/** startDevnet({ finalizeSlots }): how far `finalized` lags, set as on a real cluster when asked. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { parseDevnetArgs } from '../../src/cli/devnet.js';

describe('startDevnet: finalizeSlots', () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet({ slotMs: 20, seed: 5, stateModules: false, finalizeSlots: 32 });
    await devnet.chain.waitForSlot(40);
  });
  afterAll(() => devnet?.stop());

  it('finalized lags 32 slots, confirmed one, and each blockhash is valid 150 blocks above its own height', async () => {
    // one JSON-RPC batch: the devnet answers its calls at one moment, so the three commitments agree
    const calls = ['processed', 'confirmed', 'finalized'].flatMap((commitment) =>
      ['getSlot', 'getBlockHeight', 'getLatestBlockhash'].map((method) => ({ jsonrpc: '2.0', id: `${commitment}:${method}`, method, params: [{ commitment }] })),
    );
    const answers = (await (await fetch(devnet.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(calls) })).json()) as { id: string; result: any }[];
    const get = (id: string) => answers.find((r) => r.id === id)!.result;
    const at = (c: string) => ({ slot: get(`${c}:getSlot`) as number, height: get(`${c}:getBlockHeight`) as number, lastValid: get(`${c}:getLatestBlockhash`).value.lastValidBlockHeight as number });
    const [p, c, f] = [at('processed'), at('confirmed'), at('finalized')];
    expect(p.slot - f.slot).toBe(32);
    expect(p.slot - c.slot).toBe(1);
    for (const x of [p, c, f]) expect(x.lastValid - x.height).toBe(150);
  });

  it('a value outside 1..512 is refused, naming the option; the CLI takes --finalize-slots', async () => {
    for (const bad of [0, 513, 2.5]) {
      await expect(startDevnet({ stateModules: false, finalizeSlots: bad })).rejects.toMatchObject({ code: 'INPUT_INVALID', context: { field: 'finalizeSlots' } });
    }
    expect(parseDevnetArgs(['--finalize-slots', '32'])).toMatchObject({ finalizeSlots: 32 });
  });
});
