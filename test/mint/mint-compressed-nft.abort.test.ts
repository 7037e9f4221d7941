/**
 * One abortable wait for the toolkit (src/abort.ts `sleep`), used by the sender and by the mint:
 * an abort during the mint's wait for the indexer rejects at once with a typed `CairnError` (an
 * abort code), never with the bare `signal.reason`. The indexer lag is real: `getAsset` asks the
 * devnet for an asset it does not have yet, and the devnet answers "not found".
 * (Lives here because the sender's engineer owns this change; it belongs with test/mint.)
 */
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { AbortError, CairnError } from '../../src/errors/index.js';
import { mintCompressedNft } from '../../src/mint/mint-compressed-nft.js';
import { createClient, type CairnClient } from '../../src/rpc/client/create-client.js';
import * as senderAbort from '../../src/sender/index.js';

let devnet: Devnet;
let client: CairnClient;
const addr = () => Keypair.generate().publicKey.toBase58();

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, slotMs: 20, seed: 19, wsPortPlusOne: false });
  client = createClient({ url: devnet.url, logger: () => {} });
});
afterAll(async () => {
  await client?.close();
  await devnet?.stop();
});

describe('one abortable sleep', () => {
  it('an abort while the mint waits for the indexer rejects promptly with a typed CairnError', async () => {
    const missing = addr(); // never minted: the devnet answers "not found", as a lagging indexer does
    let answered = 0;
    const lagging: Parameters<typeof mintCompressedNft>[0] = {
      mintCompressedNft: (p, o) => client.mintCompressedNft(p, o),
      getAsset: (_p, o) =>
        client.getAsset({ id: missing }, o).finally(() => {
          answered++;
        }),
      getAssetProofBatch: (p, o) => client.getAssetProofBatch(p, o),
    };
    const ac = new AbortController();
    const p = mintCompressedNft(lagging, { name: 'T', symbol: 'T', description: '', owner: addr() }, { verify: true, signal: ac.signal, logger: () => {} });
    const settled = p.then(
      () => null,
      (e: unknown) => e,
    );
    // the second "not found" has come back: the mint is now in its 200 ms back-off wait, no request open
    while (answered < 2) await new Promise((r) => setTimeout(r, 5));
    const t0 = performance.now();
    ac.abort(new Error('user stop'));
    const err = await settled;
    expect(performance.now() - t0).toBeLessThan(100);
    expect(err).toBeInstanceOf(CairnError);
    expect(err).toBeInstanceOf(AbortError);
    expect((err as CairnError).code).toMatch(/^(RPC_ABORTED|MINT_FAILED)$/);
    expect((err as Error).message).toMatch(/user stop/);
  });

  it('the sender has no sleep of its own', () => {
    expect('sleep' in senderAbort).toBe(false);
  });
});
