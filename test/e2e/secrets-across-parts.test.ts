/**
 * The API key across every part, not only the client: the sender, the mint helper, the `send` and
 * `mint` commands and the devnet's own log, against a devnet that enforces keys (401 for a wrong one)
 * and against a hostile server that echoes the whole request — query string included — back in its
 * error bodies and messages. The key must appear in no error (message, stack, JSON, inspect, cause
 * chain), no output line and no log line. (The suite-wide guard in test/support/leak-guard.ts watches
 * every CairnError and console line on top of this.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { createClient } from '../../src/rpc/client/create-client.js';
import { createSender, generateSigner, transferInstruction } from '../../src/sender/index.js';
import { mintCompressedNft } from '../../src/mint/mint-compressed-nft.js';
import { run as sendCli } from '../../src/cli/send.js';
import { run as mintCli } from '../../src/cli/mint.js';
import { findSecret } from '../support/secret-scan.js';
import { startServer, type TestServer } from '../support/rpc-server.js';

const GOOD = 'good-key-7c1e4b9a2f';
const WRONG = 'wrong-key-93d0aa51e6';
const OWNER = '4ACfpUFoaSD9bfPdeu6DBt89gB6ENTeHBXCAi87NhDEE';

function clean(what: unknown): void {
  for (const k of [GOOD, WRONG]) expect(findSecret(what, k)).toEqual([]);
}

async function caught(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

describe('the API key never leaks, in any part', () => {
  let devnet: Devnet;
  let hostile: TestServer;
  const devnetLog: string[] = [];
  beforeAll(async () => {
    devnet = await startDevnet({ slotMs: 50, keys: [{ key: GOOD }], log: (l) => devnetLog.push(l), waitForModules: true });
    // echoes the request line (with ?api-key=…) and headers in every error it returns
    hostile = await startServer((req) => ({
      status: req.method === 'GET' ? 503 : 500,
      body: { jsonrpc: '2.0', id: req.body?.id, error: { code: -32603, message: `failed ${req.path}?api-key=${req.query['api-key']}`, data: { headers: req.headers, query: req.query } } },
    }));
  });
  afterAll(async () => {
    await hostile?.close();
    await devnet?.stop();
  });

  it('sender: a wrong key (401) and an echoing server', async () => {
    const payer = generateSigner();
    for (const [url, key] of [[devnet.url, WRONG], [hostile.url, GOOD]] as const) {
      const client = createClient({ url, apiKey: key, retry: { retries: 1, delay: () => 1 } });
      const sender = createSender({ client, cuPrice: 1_000, cuLimit: 1_000, tip: 1_000_000n });
      const e = await caught(sender.send({ instructions: [transferInstruction(payer.address, OWNER, 5_000n)], payer }));
      expect((e as { code?: string }).code).toMatch(/^RPC_|^SENDER_/);
      clean(e);
      await sender.close();
      await client.close();
    }
  });

  it('mint helper: a wrong key (401) and an echoing server', async () => {
    for (const [url, key] of [[devnet.url, WRONG], [hostile.url, GOOD]] as const) {
      const client = createClient({ url, apiKey: key, retry: { retries: 1, delay: () => 1 } });
      const e = await caught(mintCompressedNft(client, { name: 'n', symbol: 'S', description: '', owner: OWNER }, { verify: true, logger: () => {} }));
      clean(e);
      await client.close();
    }
  });

  it('cairn send and cairn mint: nothing on stdout or stderr carries the key', async () => {
    let out = '';
    const io = { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (out += s) } };
    const to = generateSigner().address;
    expect(await sendCli(['--to', to, '--lamports', '5000', '--url', devnet.url], { ...io, env: { CAIRN_API_KEY: WRONG } })).not.toBe(0);
    expect(await mintCli(['--name', 'n', '--symbol', 'S', '--owner', OWNER, '--url', hostile.url, '--api-key', GOOD], io)).not.toBe(0);
    expect(out).toMatch(/RPC_/);
    clean(out);
  });

  it('the devnet works with the good key and logs neither key', async () => {
    const client = createClient({ url: devnet.url, apiKey: GOOD });
    expect(typeof (await client.getBlockHeight())).toBe('number');
    await client.close();
    clean(devnetLog.join('\n'));
  });
});
