/**
 * `cairn send` with the Solana CLI's habits and `send`/`mint --file` for many (issue 21): every flag
 * checked before any request (--tip before the airdrop), the default keypair path, --url named on
 * stderr and no devnet funding message for another URL, a rent hint naming the minimum, batches with
 * a line (or JSON) per item and progress on a terminal.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as send } from '../../src/cli/send.js';
import { run as mint } from '../../src/cli/mint.js';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { generateSigner } from '../../src/sender/index.js';
import { startServer, type TestServer } from '../support/rpc-server.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-send-many-'));
let srv: TestServer;
let devnet: Devnet;

beforeAll(async () => {
  srv = await startServer(() => ({ status: 503, body: { error: 'down' } }));
  devnet = await startDevnet({ port: 0, slotMs: 50, waitForModules: true });
});
afterAll(async () => {
  await srv?.close();
  await devnet?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function io(env: NodeJS.ProcessEnv = {}, tty = false) {
  let out = '';
  let err = '';
  return {
    io: { stdout: { write: (s: string) => (out += s) }, stderr: { isTTY: tty, write: (s: string) => (err += s) }, env, signal: new AbortController().signal },
    out: () => out,
    err: () => err,
  };
}

const to = (): string => generateSigner().address;

describe('cairn send: checked before anything is sent', () => {
  it('a tip below the minimum is refused (exit 2, "--tip") before the airdrop: no request at all', async () => {
    const t = io();
    expect(await send(['--to', to(), '--lamports', '5', '--tip', '1', '--url', srv.url], t.io)).toBe(2);
    expect(t.err()).toMatch(/^cairn send: \[INPUT_INVALID\] "--tip": 1 lamports is below the minimum tip/);
    expect(srv.requests).toHaveLength(0);
  });

  it('a bad item in --file names it, sends nothing; --file with --to is a usage error', async () => {
    const f = join(dir, 'bad.json');
    writeFileSync(f, JSON.stringify([{ to: to(), lamports: 5 }, { to: 'nope', lamports: 5 }]));
    const t = io();
    expect(await send(['--file', f, '--url', srv.url, '--json'], t.io)).toBe(2);
    expect(JSON.parse(t.out())).toMatchObject({ error: { code: 'INPUT_INVALID', field: '--file', message: expect.stringMatching(/item 1\.to/) } });
    expect((await send(['--file', f, '--to', to(), '--url', srv.url], io().io))).toBe(2);
    expect(srv.requests).toHaveLength(0);
  });
});

describe('cairn send: the Solana CLI habits', () => {
  it('takes ~/.config/solana/id.json when it exists, names the URL and the payer, never says "local devnet" elsewhere', async () => {
    const home = join(dir, 'home');
    mkdirSync(join(home, '.config', 'solana'), { recursive: true });
    const payer = generateSigner();
    writeFileSync(join(home, '.config', 'solana', 'id.json'), JSON.stringify([...payer.secretKey()]));
    const remote = `http://0.0.0.0:${new URL(srv.url).port}`;
    const t = io({ HOME: home });
    expect(await send(['--to', to(), '--lamports', '5', '-u', remote], t.io)).toBe(1);
    expect(t.err()).toContain(`cairn send: RPC ${remote}, payer ${payer.address} (the Solana CLI default)`);
    expect(t.err()).not.toMatch(/devnet|airdrop|funding/);
    expect(srv.requests.length).toBeGreaterThan(0);
    srv.requests.length = 0;
  });

  it('no keypair anywhere and a URL that is not loopback: exit 2 naming --keypair and the default path', async () => {
    const t = io({ HOME: join(dir, 'empty-home') });
    expect(await send(['--to', to(), '--lamports', '5', '--url', 'http://example.invalid:1'], t.io)).toBe(2);
    expect(t.err()).toMatch(/"--keypair": required when not sending to a local devnet \(http:\/\/example\.invalid:1\); none in CAIRN_KEYPAIR or .*\.config\/solana\/id\.json/);
  });

  it('a transfer to a new account below the rent-exempt minimum: exit 1 with a hint naming the minimum', async () => {
    const t = io();
    expect(await send(['--to', to(), '--lamports', '1000', '--url', devnet.url, '--cu-limit', '1000'], t.io)).toBe(1);
    expect(t.err()).toMatch(/InsufficientFundsForRent/);
    expect(t.err()).toMatch(/hint: .* would hold 1000 lamports, below the rent-exempt minimum of 890880 lamports .*; send at least 890880 lamports/);
    expect(t.err()).toMatch(/funding a fresh one, \w+, by airdrop from http:\/\/127\.0\.0\.1:\d+/);
  }, 60_000);
});

describe('many from a file', () => {
  it('cairn send --file: a line per transfer, JSON with --json, progress on a terminal only', async () => {
    const recipients = [to(), to(), to()];
    const f = join(dir, 'batch.json');
    writeFileSync(f, JSON.stringify(recipients.map((r, i) => ({ to: r, lamports: String(1_000_000_000 + i) }))));
    const t = io({}, true);
    expect(await send(['--file', f, '--url', devnet.url, '--cu-limit', '1000', '--json'], t.io)).toBe(0);
    const j = JSON.parse(t.out());
    expect(j).toMatchObject({ total: 3, confirmed: 3, failed: 0 });
    expect(j.items.map((i: { index: number }) => i.index).sort()).toEqual([0, 1, 2]);
    for (const [i, r] of recipients.entries()) expect(devnet.chain.balance(r)).toBe(1_000_000_000n + BigInt(i));
    expect(t.err()).toMatch(/\rsend: transfers 3\/3 \(100%\)/);
    const u = io();
    expect(await send(['--file', f, '--url', devnet.url, '--cu-limit', '1000'], u.io)).toBe(0);
    expect(u.out()).toMatch(/3\/3 transfers confirmed from \w+\n$/);
    expect(u.err()).not.toMatch(/\r/);
  }, 60_000);

  it('cairn mint --file: every item checked first (a bad one sends nothing), then each minted and verified', async () => {
    const owner = to();
    const bad = join(dir, 'mint-bad.json');
    writeFileSync(bad, JSON.stringify([{ name: 'a', symbol: 'A', description: '', owner }, { name: 'b', symbol: 'TOOLONGSYMBOL1', description: '', owner }]));
    const before = devnet.control.requestLog().length;
    const b = io();
    expect(await mint(['--file', bad, '--url', devnet.url], b.io)).toBe(2);
    expect(b.err()).toMatch(/"--file": item 1: "symbol"/);
    expect(devnet.control.requestLog().length).toBe(before);

    const good = join(dir, 'mint.json');
    writeFileSync(good, JSON.stringify([1, 2].map((i) => ({ name: `n${i}`, symbol: 'S', description: '', owner, sellerFeeBasisPoints: 100 }))));
    const t = io({}, true);
    expect(await mint(['--file', good, '--url', devnet.url, '--json'], t.io)).toBe(0);
    const j = JSON.parse(t.out());
    expect(j).toMatchObject({ total: 2, minted: 2, failed: 0 });
    for (const item of j.items) expect(item.verification.proof.valid).toBe(true);
    expect(t.err()).toMatch(/\rmint: cNFTs 2\/2/);
    expect((await mint(['--file', good, '--name', 'x', '--url', devnet.url], io().io))).toBe(2);
  }, 120_000);
});
