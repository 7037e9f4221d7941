/**
 * `cairn bench` for users (issue 37): each family prints its table, `--json` rows and `--report` a
 * page whose figures read back the same; `landing` against an endpoint off loopback refuses before
 * any request without a cap that covers it (a server on 127.0.0.2 counts the requests: it must see
 * none), stops at the cap when the payer's balance falls faster than the run spends (another spender
 * on the same key), and Ctrl-C prints the partial figures with exit 1.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/bench.js';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { landingFamily } from '../../src/bench/landing-family.js';
import { checkCap, formatSol, parseSol, transferCost } from '../../src/bench/spend-cap.js';
import { readReportData } from '../../src/bench/report-html.js';
import type { FamilyContext } from '../../src/bench/types.js';
import { createClient } from '../../src/rpc/client/create-client.js';
import { generateSigner } from '../../src/sender/index.js';

function capture(signal?: AbortSignal, env: NodeJS.ProcessEnv = {}) {
  let out = '';
  let err = '';
  const io = { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) }, env, ...(signal ? { signal } : {}) };
  return { io, out: () => out, err: () => err };
}

async function bench(argv: string[], signal?: AbortSignal, env?: NodeJS.ProcessEnv) {
  const c = capture(signal, env);
  const code = await run(argv, c.io);
  return { code, out: c.out(), err: c.err() };
}

let devnet: Devnet;
let dir: string;
beforeAll(async () => {
  devnet = await startDevnet({ port: 0, slotMs: 100, validityProofs: 'fake' });
  dir = mkdtempSync(join(tmpdir(), 'cairn-bench-'));
});
afterAll(async () => {
  await devnet?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('cairn bench: the families users run', () => {
  it('--list names the four user families', async () => {
    const r = await bench(['--list']);
    expect(r.code).toBe(0);
    expect(r.out.split('\n').slice(0, 4)).toEqual(['verify', 'sign', 'rpc', 'landing']);
  });

  it('sign: a table of both transaction shapes; --json the same rows; --report a page that reads back to them', async () => {
    const report = join(dir, 'sign.html');
    const t = await bench(['sign', '--seconds', '0.2', '--quiet']);
    expect(t.code).toBe(0);
    expect(t.out).toMatch(/^cairn bench sign: \d+ cores/);
    expect(t.out).toMatch(/transfer \+ tip \(2 instructions\)\s+[\d,]+\s+[\d,]+/);
    const j = await bench(['sign', '--seconds', '0.2', '--json', '--report', report]);
    expect(j.code).toBe(0);
    const result = JSON.parse(j.out);
    expect(result.family).toBe('sign');
    expect(result.rows).toHaveLength(2);
    for (const row of result.rows) expect(row.perSec).toBeGreaterThan(0);
    const html = readFileSync(report, 'utf8');
    expect(readReportData(html)).toEqual([result]);
    // the table cells carry the same figures
    const cell = new RegExp(`data-family="sign" data-row="0" data-field="perSec">([^<]+)<`).exec(html);
    expect(Number(cell![1]!.replace(/,/g, ''))).toBe(result.rows[0].perSec);
    expect(html).not.toMatch(/<script(?! type="application\/json")/);
    expect(html).not.toMatch(/(src|href)="http/);
  });

  it('verify: generated proofs of every kind verify, per thread count and form', async () => {
    const r = await bench(['verify', '--kinds', 'asset-proof,address-proof,validity-proof', '--threads', '1', '--seconds', '0.1', '--items', '16', '--json']);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.out);
    expect(result.rows.map((x: { name: string }) => x.name)).toEqual([
      'asset-proof bytes ×1',
      'asset-proof parsed ×1',
      'address-proof bytes ×1',
      'address-proof parsed ×1',
      'validity-proof bytes ×1',
      'validity-proof parsed ×1',
    ]);
    for (const row of result.rows) expect(row.itemsPerSec).toBeGreaterThan(0);
  });

  it('rpc: p50/p95/p99 and errors per read-only method against --url', async () => {
    const r = await bench(['rpc', '--url', devnet.url, '--methods', 'getSlot,getLatestBlockhash', '--requests', '5', '--json']);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.out);
    expect(result.rows).toHaveLength(2);
    for (const row of result.rows) expect(row).toMatchObject({ calls: 5, errors: 0, firstError: null, p50Ms: expect.any(Number), p99Ms: expect.any(Number) });
    // every method it knows is one the service (here the devnet) answers
    const all = JSON.parse((await bench(['rpc', '--url', devnet.url, '--requests', '2', '--json'])).out);
    expect(all.rows.length).toBeGreaterThanOrEqual(15);
    for (const row of all.rows) expect(row, row.name).toMatchObject({ calls: 2, errors: 0 });
    const bad = await bench(['rpc', '--url', devnet.url, '--methods', 'sendTransaction']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/"--methods": "sendTransaction" is not a read-only method/);
  });

  it('landing against the embedded devnet: every transfer lands, with its figures', async () => {
    const r = await bench(['landing', '--devnet', '--transfers', '4', '--concurrency', '2', '--json']);
    expect(r.code).toBe(0);
    const [row] = JSON.parse(r.out).rows;
    expect(row).toMatchObject({ offered: 4, started: 4, landed: 4, landedPct: 100, failed: 0, fastCallsPerLanded: expect.any(Number) });
    expect(row.confirmedP50Ms).toBeGreaterThan(0);
    expect(BigInt(row.tipsLamports)).toBe(4n * 1_000_000n);
  });
});

describe('cairn bench landing: what it may spend', () => {
  let server: Server;
  let url = '';
  let requests = 0;
  beforeAll(async () => {
    // 127.0.0.2 is this machine, but not a loopback name cairn trusts: it stands for a real endpoint
    server = createServer((req, res) => {
      requests++;
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.2', r));
    url = `http://127.0.0.2:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('the most a run can spend is known from its fixed prices', () => {
    const price = { tip: 1_000_000n, cuPrice: 10_000n, cuLimit: 1_000, amountOut: 0n };
    expect(transferCost(price)).toBe(5_000n + 10n + 1_000_000n);
    expect(transferCost({ ...price, cuPrice: 1n, amountOut: 7n })).toBe(5_000n + 1n + 1_000_000n + 7n);
    expect(formatSol(1_005_010n)).toBe('0.00100501 SOL');
    expect(parseSol('0.05', 'x')).toBe(50_000_000n);
    expect(() => parseSol('lots', '--max-spend')).toThrow(/"--max-spend": expected an amount of SOL/);
    expect(() => parseSol('0', '--max-spend')).toThrow(/more than 0/);
    expect(() => checkCap(10, price, undefined, true)).toThrow(/"--max-spend": this run can spend up to 0\.0100501 SOL/);
    expect(() => checkCap(10, price, 10_050_099n, true)).toThrow(/does not cover this run/);
    expect(checkCap(10, price, 10_050_100n, true).atMost).toBe(10_050_100n);
  });

  it('off loopback without --max-spend: refused, exit 2, no request made', async () => {
    const r = await bench(['landing', '--url', url, '--transfers', '10']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/\[INPUT_INVALID\] "--max-spend": this run can spend up to 0\.0100501 SOL \(10 × 0\.00100501 SOL/);
    expect(requests).toBe(0);
  });

  it('off loopback with a cap below what the run needs: refused, exit 2, no request made', async () => {
    const r = await bench(['landing', '--url', url, '--transfers', '10', '--max-spend', '0.01']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/"--max-spend": 0\.01 SOL does not cover this run: up to 0\.0100501 SOL/);
    // and without a keypair even a large enough cap is refused before anything is asked
    const k = await bench(['landing', '--url', url, '--transfers', '10', '--max-spend', '1']);
    expect(k.code).toBe(2);
    expect(k.err).toMatch(/"--keypair": required against http:\/\/127\.0\.0\.2/);
    expect(requests).toBe(0);
  });

  it('the production hosts (--cluster, or an API key alone) are a real endpoint: the same refusals, the key never shown', async () => {
    const key = 'bench-secret-key-0123456789';
    for (const argv of [['landing', '--cluster', 'mainnet'], ['landing']]) {
      const r = await bench([...argv, '--transfers', '5'], undefined, { CAIRN_API_KEY: key });
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/"--max-spend": this run can spend up to 0\.00502505 SOL/);
      expect(r.out + r.err).not.toContain(key);
    }
    const k = await bench(['landing', '--cluster', 'devnet', '--transfers', '5', '--max-spend', '0.01'], undefined, { CAIRN_API_KEY: key });
    expect(k.err).toMatch(/"--keypair": required against https:\/\/devnet\.helius-rpc\.com/);
    expect(k.err).not.toContain(key);
    const c = await bench(['rpc', '--cluster', 'testnet']);
    expect(c.code).toBe(2);
    expect(c.err).toMatch(/"--cluster": expected 'mainnet' or 'devnet'/);
  });

  it('stops at the cap when the payer spends faster than the run (another spender on the same key)', async () => {
    const payer = generateSigner();
    await devnet.control.airdrop(payer.address, 2_000_000_000n);
    const price = { tip: 1_000_000n, cuPrice: 10_000n, cuLimit: 1_000 };
    const per = transferCost({ ...price, amountOut: 0n });
    const transfers = 40;
    // another spender on the same key takes 10 transfers' worth from the payer once 3 transfers have
    // ended (written straight into the devnet's account: the run sees it only through getBalance)
    const client = createClient({ baseUrl: devnet.url });
    let spent: Promise<unknown> | undefined;
    const ctx: FamilyContext = {
      signal: new AbortController().signal,
      say: () => {},
      progress: (_l, done) => {
        if (done >= 3 && !spent) {
          spent = client.getBalance(payer.address, { commitment: 'processed' }).then((b) =>
            devnet.control.setAccount({ address: payer.address, lamports: BigInt(b) - 10n * per, data: new Uint8Array(0), owner: '11111111111111111111111111111111', executable: false }),
          );
        }
      },
    };
    try {
      const r = await landingFamily(
        {
          baseUrl: devnet.url,
          senderUrl: devnet.url,
          payer,
          transfers,
          concurrency: 2,
          lamports: 1n,
          swqosOnly: false,
          ...price,
          cap: BigInt(transfers) * per,
          capRequired: true,
          balanceEvery: 1,
        },
        ctx,
      );
      await spent;
      expect(r.partial).toMatch(/spending cap of 0\.0402004 SOL/);
      const [row] = r.rows;
      expect(row!.started as number).toBeLessThan(transfers);
      // what the run itself spent stays under the cap with the other spender's share counted
      const own = BigInt(row!.balanceFellLamports as string);
      expect(own).toBeLessThanOrEqual(BigInt(transfers) * per + 11n * per);
    } finally {
      await client.close();
    }
  });

  it('Ctrl-C: the partial figures are printed, exit 1', async () => {
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(new Error('interrupted (Ctrl-C)')), 1_500);
    try {
      const r = await bench(['landing', '--url', devnet.url, '--transfers', '500', '--concurrency', '2', '--quiet'], ac.signal);
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/PARTIAL: interrupted \(Ctrl-C\)/);
      const started = Number(/started\s+(\d+)/.exec(r.out)![1]);
      expect(started).toBeGreaterThan(0);
      expect(started).toBeLessThan(500);
      expect(r.out).toMatch(/landedPct\s+100/);
    } finally {
      clearTimeout(timer);
    }
  });
});
