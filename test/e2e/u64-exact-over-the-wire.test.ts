/**
 * u64 values above 2^53 (lamports, amounts) leave the devnet as exact JSON digits, and the client
 * reads them back as exact bigints: the account hash recomputed from the JSON still matches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { createClient } from '../../src/rpc/client/create-client.js';
import { verifyAccountHash } from '../../src/merkle/compressed/account.js';
import { parseCompressedAccount } from '../../src/merkle/compressed/account-parse.js';
import { newAddress } from '../support/devnet.js';

describe('u64 on the wire', () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet({ slotMs: 50, waitForModules: true });
  });
  afterAll(async () => {
    await devnet?.stop();
  });

  it('lamports 2^60 + 1 survive the devnet, the HTTP body and the client exactly', async () => {
    const big = 2n ** 60n + 1n;
    const r = await devnet.compression!.createCompressedAccount({ owner: newAddress(), lamports: big });
    const hash = String(r.account.hash);
    const res = await fetch(devnet.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: '1', method: 'getCompressedAccount', params: { hash } }),
    });
    const text = await res.text();
    expect(text).toContain(`"lamports":${big.toString()}`);
    const client = createClient({ url: devnet.url });
    const got = await client.getCompressedAccount({ hash });
    expect(BigInt(got.value!.lamports as unknown as bigint)).toBe(big);
    expect(verifyAccountHash(parseCompressedAccount(got.value)).valid).toBe(true);
    await client.close();
  });
});
