import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { rpc } from '../support/devnet.js';

describe('standard methods validate their config', () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet({ slotMs: 50 });
  });
  afterAll(async () => {
    await devnet?.stop();
  });

  it('getLatestBlockhash refuses an unknown commitment with -32602 naming it, accepts the real ones', async () => {
    const bad = await rpc(devnet.url, 'getLatestBlockhash', [{ commitment: 'bogus' }]);
    expect(bad.body.error).toMatchObject({ code: -32602, message: expect.stringMatching(/commitment/) });
    for (const commitment of ['processed', 'confirmed', 'finalized']) {
      const ok = await rpc(devnet.url, 'getLatestBlockhash', [{ commitment }]);
      expect(ok.body.result.value.lastValidBlockHeight).toBeGreaterThan(0);
    }
  });
});
