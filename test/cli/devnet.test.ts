import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDevnetArgs, run } from '../../src/cli/devnet.js';
import { dispatch } from '../../src/cli/commands.js';

/** Run `cairn devnet argv` in-process with captured output (for runs that end before it starts). */
async function devnet(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await run(argv, { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) } });
  return { code, out, err };
}

describe('cairn devnet', () => {
  it('parses flags, repeated faults and a keys file; names the bad flag', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-devnet-'));
    try {
      const keys = join(dir, 'keys.json');
      writeFileSync(keys, JSON.stringify([{ key: 'abcd1234', rps: 5 }]));
      const o = parseDevnetArgs(['--port', '0', '--slot-ms=50', '--seed', '7', '--keys', keys, '--fault', 'fast:dropRate=0.1', '--fault', 'rpc:rateLimitRate=0.2,retryAfterSeconds=2']);
      expect(o).toMatchObject({ port: 0, slotMs: 50, seed: 7, keys: [{ key: 'abcd1234', rps: 5 }], faults: { fast: { dropRate: 0.1 }, rpc: { rateLimitRate: 0.2, retryAfterSeconds: 2 } } });
      expect(parseDevnetArgs([])).toMatchObject({ port: 8899 });
      expect(() => parseDevnetArgs(['--port', 'x'])).toThrow(/--port/);
      expect(() => parseDevnetArgs(['--fault', 'moon:latencyMs=1'])).toThrow(/unknown endpoint/);
      expect(() => parseDevnetArgs(['--wat'])).toThrow(/unknown option/);
      writeFileSync(keys, '{nope');
      expect(() => parseDevnetArgs(['--keys', keys])).toThrow(/keys/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('on the shared parser: help with every flag and the exit codes, exit 0; errors as cairn devnet: [CODE] naming the flag, exit 2', async () => {
    for (const argv of [['--help'], ['-h']]) {
      const r = await devnet(argv);
      expect(r.code).toBe(0);
      for (const flag of ['-p, --rpc-port N', '--port N', '--ledger DIR', '--reset', '--bpf-program ADDR FILE …', '--account ADDR FILE …', '--fault', '--limit', '--keys FILE', '--host H']) expect(r.out).toContain(flag);
      expect(r.out).toMatch(/exit codes:\n  0 .*\n  1 .*could not start.*\n  2 .*bad usage/);
    }
    let helped = '';
    const stdout = process.stdout.write;
    process.stdout.write = ((s: string) => ((helped += s), true)) as typeof process.stdout.write;
    try {
      expect(await dispatch(['help', 'devnet'])).toBe(0);
    } finally {
      process.stdout.write = stdout;
    }
    expect(helped).toBe((await devnet(['--help'])).out);
    expect((await devnet(['--version'])).out).toMatch(/^cairn \d+\.\d+\.\d+\n$/);

    const cases: [string[], RegExp][] = [
      [['--slotms', '50'], /^cairn devnet: \[INPUT_INVALID\] "--slotms": unknown option; did you mean --slot-ms\?\n/],
      [['--port', 'x'], /^cairn devnet: \[INPUT_INVALID\] "--port": expected a number in 0\.\.65535, got "x"\n/],
      [['-p', '-5'], /^cairn devnet: \[INPUT_INVALID\] "-p": expected a number in 0\.\.65535, got "-5"\n/],
      [['--port', '1', '--rpc-port', '2'], /^cairn devnet: \[INPUT_INVALID\] "--port": and --rpc-port name the same port/],
      [['--fault', 'moon:latencyMs=1'], /^cairn devnet: \[INPUT_INVALID\] "--fault": unknown endpoint "moon"/],
      [['--fault'], /^cairn devnet: \[INPUT_INVALID\] "--fault": expected a value\n/],
      [['--bpf-program', 'A'], /^cairn devnet: \[INPUT_INVALID\] "--bpf-program": expected two values: ADDR FILE\n/],
      [['stray'], /^cairn devnet: \[INPUT_INVALID\] "argv": unexpected argument "stray"\n/],
    ];
    for (const [argv, message] of cases) {
      const r = await devnet(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err, argv.join(' ')).toMatch(message);
      expect(r.out).toBe('');
    }
  });

  it('checks every flag before anything starts: a bad flag after --ledger leaves no ledger directory behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-devnet-'));
    try {
      const ledger = join(dir, 'ledger');
      for (const argv of [['--ledger', ledger, '--slot-ms', '0'], ['--ledger', ledger, '--keys', join(dir, 'missing.json')], ['--ledger', ledger, '--account', 'A', join(dir, 'missing.json')]]) {
        const r = await devnet(['-p', '0', ...argv]);
        expect(r.code, argv.join(' ')).toBe(2);
        expect(r.err).toMatch(/^cairn devnet: \[INPUT_INVALID\] "--(slot-ms|keys|account)"/);
        expect(existsSync(ledger)).toBe(false);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs in-process until its stop signal and stops cleanly, leaving no server, socket or timer', async () => {
    const count = () => {
      const r = process.getActiveResourcesInfo();
      return { servers: r.filter((x) => x === 'TCPServerWrap').length, sockets: r.filter((x) => x === 'TCPSocketWrap').length, timers: r.filter((x) => x === 'Timeout').length };
    };
    const before = count();
    let stop!: () => void;
    const stopSignal = new Promise<void>((r) => (stop = r));
    let out = '';
    const io = { stdout: { write: (s: string) => (out += s) }, stderr: { write: () => true }, stopSignal, onReady: () => stop() };
    expect(await run(['--port', '0', '--slot-ms', '50'], io)).toBe(0);
    expect(out).toMatch(/devnet listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(out).toMatch(/devnet stopped/);
    // libuv releases a closed listener's handle a moment after the close callback
    let after = count();
    for (let i = 0; i < 100 && (after.servers > before.servers || after.sockets > before.sockets || after.timers > before.timers); i++) {
      await new Promise((r) => setTimeout(r, 10));
      after = count();
    }
    expect(after.servers).toBeLessThanOrEqual(before.servers);
    expect(after.sockets).toBeLessThanOrEqual(before.sockets);
    expect(after.timers).toBeLessThanOrEqual(before.timers);
    let err = '';
    expect(await run(['--slot-ms', '0'], { stdout: { write: () => true }, stderr: { write: (s: string) => (err += s) } })).toBe(2);
    expect(err).toMatch(/--slot-ms/);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('as a process: starts, serves, and exits 0 on %s with nothing left behind', async (signal) => {
    const child = spawn(process.execPath, ['bin/cairn.js', 'devnet', '--port', '0', '--slot-ms', '50'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 30_000);
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) {
          clearTimeout(t);
          resolve(m[1]!);
        }
      });
      child.on('exit', (code) => reject(new Error(`exited early with ${code}: ${out}`)));
    });
    expect(await (await fetch(`${url}/ping`)).text()).toBe('ok');
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.kill(signal); // SIGINT is what Ctrl-C sends
    const code = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r('timeout'), 10_000))]);
    expect(code).toBe(0);
    await expect(fetch(`${url}/ping`)).rejects.toThrow();
  });
});
