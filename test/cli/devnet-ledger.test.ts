// `cairn devnet`'s test-validator habits: -p/--rpc-port, --ledger/--reset across restarts of the
// command (state read back through JSON-RPC), --bpf-program and --account, the non-loopback warning.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isLoopback, parseDevnetArgs, run } from '../../src/cli/devnet.js';
import { startDevnet } from '../../src/devnet/index.js';
import { newAddress, rpc } from '../support/devnet.js';

const root = mkdtempSync(join(tmpdir(), 'cairn-devnet-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// bigints written as plain digits, as the Solana CLI writes u64s (a JS number cannot hold u64::MAX)
const accountFile = (name: string, body: unknown): string => {
  const f = join(root, name);
  writeFileSync(f, JSON.stringify(body, (_k, v: unknown) => (typeof v === 'bigint' ? `<u64:${v}>` : v)).replace(/"<u64:(\d+)>"/g, '$1'));
  return f;
};

/** Run `cairn devnet argv` in-process, call `during(url)` once it listens, then stop it. */
async function withCli(argv: string[], during: (url: string) => Promise<void>): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  let stop!: () => void;
  let failure: { error: unknown } | undefined;
  const stopSignal = new Promise<void>((r) => (stop = r));
  const io = {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    stopSignal,
    onReady: (url: string) => {
      during(url).then(stop, (e: unknown) => {
        failure = { error: e };
        stop();
      });
    },
  };
  const code = await run(argv, io);
  if (failure) throw failure.error;
  return { code, out, err };
}

const call = async (url: string, method: string, params: unknown): Promise<any> => {
  const r = await rpc(url, method, params);
  expect(r.body.error, `${method}: ${JSON.stringify(r.body.error)}`).toBeUndefined();
  return r.body.result;
};

describe('cairn devnet: test-validator habits', () => {
  it('parses -p/--rpc-port, --ledger, --reset, --bpf-program and --account; names the flag on a bad one', () => {
    expect(parseDevnetArgs(['-p', '9001'])).toMatchObject({ port: 9001 });
    expect(parseDevnetArgs(['--rpc-port=9002'])).toMatchObject({ port: 9002 });
    expect(() => parseDevnetArgs(['-p', 'x'])).toThrow(/"-p"/);
    expect(parseDevnetArgs(['--ledger', root, '--reset'])).toMatchObject({ ledger: root, reset: true });
    expect(() => parseDevnetArgs(['--ledger'])).toThrow(/--ledger/);
    const owner = newAddress();
    const addr = newAddress();
    const f = accountFile('acc.json', { pubkey: newAddress(), account: { lamports: 5000, data: [Buffer.from([1, 2, 3]).toString('base64'), 'base64'], owner, executable: false, rentEpoch: 0 } });
    const o = parseDevnetArgs(['--account', addr, f]);
    expect(o !== 'help' && o.accounts).toEqual([{ address: addr, lamports: 5000n, data: Uint8Array.from([1, 2, 3]), owner, executable: false, rentEpoch: 0n }]);
    expect(() => parseDevnetArgs(['--account', addr])).toThrow(/"--account": expected two values: ADDR FILE/);
    const bad = accountFile('bad.json', { pubkey: addr, account: { lamports: -1, data: ['', 'base64'], owner } });
    expect(() => parseDevnetArgs(['--account', addr, bad])).toThrow(/"--account".*lamports/);
    expect(() => parseDevnetArgs(['--bpf-program', addr, join(root, 'missing.so')])).toThrow(/"--bpf-program": cannot read/);
  });

  it('warns on stderr for a non-loopback --host, not for loopback', async () => {
    expect(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'].every(isLoopback)).toBe(true);
    expect(['0.0.0.0', '::', '192.168.1.2', 'example.com'].some(isLoopback)).toBe(false);
    // 192.0.2.1 (TEST-NET-1) is not on this machine: the warning comes first, then the bind fails.
    let err = '';
    const code = await run(['--host', '192.0.2.1', '--port', '0'], { stdout: { write: () => true }, stderr: { write: (s: string) => (err += s) } });
    expect(code).toBe(1);
    expect(err).toMatch(/warning: --host 192\.0\.2\.1 is not loopback.*no TLS.*query string/);
    const quiet = await withCli(['--host', '127.0.0.1', '--port', '0', '--slot-ms', '50'], async () => {});
    expect(quiet.err).not.toMatch(/warning/);
  });

  it('--ledger DIR restarted keeps balances, assets and compressed accounts, loaded programs and accounts; --reset starts over', async () => {
    const dir = join(root, 'ledger');
    const owner = newAddress();
    const funded = newAddress();
    const progAddr = newAddress();
    const accAddr = newAddress();
    // Compressed accounts enter through the library's control API (no JSON-RPC method writes them).
    const lib = await startDevnet({ slotMs: 20, ledger: dir });
    const elf = (() => {
      // An ELF to deploy: the SPL Token program LiteSVM carries, read from its programdata account.
      const prog = lib.svm.getAccount('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' as never);
      const pd = lib.svm.getAccount(rpcAddress(prog.exists ? prog.data.subarray(4, 36) : new Uint8Array(32)) as never);
      return pd.exists ? pd.data.subarray(45) : new Uint8Array(0);
    })();
    const hash = (await lib.compression!.createCompressedAccount({ owner, lamports: 7n })).account.hash as string;
    await lib.stop();
    const so = join(root, 'token.so');
    writeFileSync(so, elf);
    const accJson = accountFile('loaded.json', { pubkey: accAddr, account: { lamports: 1_000_000, data: [Buffer.from('hello').toString('base64'), 'base64'], owner, executable: false, rentEpoch: 18446744073709551615n } });

    let assetId = '';
    const first = await withCli(['-p', '0', '--slot-ms', '20', '--ledger', dir, '--bpf-program', progAddr, so, '--account', accAddr, accJson], async (url) => {
      const sig = await call(url, 'requestAirdrop', [funded, 123_000_000]);
      for (let i = 0; i < 500 && (await call(url, 'getSignatureStatuses', [[sig]])).value[0]?.confirmationStatus !== 'confirmed'; i++) await new Promise((r) => setTimeout(r, 20));
      assetId = (await call(url, 'mintCompressedNft', { name: 'CLI', symbol: 'C', description: '', owner, confirmTransaction: true })).assetId;
    });
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/ledger: /);

    const second = await withCli(['--rpc-port', '0', '--slot-ms', '20', '--ledger', dir], async (url) => {
      expect((await call(url, 'getBalance', [funded])).value).toBe(123_000_000);
      expect(await call(url, 'getAsset', { id: assetId })).toMatchObject({ id: assetId, ownership: { owner } });
      expect((await call(url, 'getCompressedAccount', { hash })).value).toMatchObject({ hash, lamports: 7 });
      const acc = (await call(url, 'getAccountInfo', [accAddr, { encoding: 'base64' }])).value;
      expect(acc).toMatchObject({ lamports: 1_000_000, owner, data: [Buffer.from('hello').toString('base64'), 'base64'] });
      expect((await call(url, 'getAccountInfo', [progAddr, { encoding: 'base64' }])).value).toMatchObject({ executable: true });
    });
    expect(second.code).toBe(0);

    // A ledger that does not parse: named on stderr, exit 2, nothing started.
    const broken = join(root, 'broken');
    mkdirSync(broken);
    writeFileSync(join(broken, 'ledger.json'), '{"format":"cairn-devnet-ledger","version":1,');
    let err = '';
    expect(await run(['-p', '0', '--ledger', broken], { stdout: { write: () => true }, stderr: { write: (s: string) => (err += s) } })).toBe(2);
    expect(err).toContain(join(broken, 'ledger.json'));

    const reset = await withCli(['-p', '0', '--slot-ms', '20', '--ledger', dir, '--reset'], async (url) => {
      expect((await call(url, 'getBalance', [funded])).value).toBe(0);
      expect((await call(url, 'getCompressedAccountsByOwner', { owner })).value.items).toEqual([]);
    });
    expect(reset.code).toBe(0);
  }, 60_000);
});

function rpcAddress(bytes: Uint8Array): string {
  // Local base58 so the test does not reach into src for an encoder.
  const ALPHA = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let s = '';
  while (n > 0n) {
    s = ALPHA[Number(n % 58n)] + s;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    s = '1' + s;
  }
  return s;
}
