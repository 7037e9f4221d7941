import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDevnetArgs, run } from '../../src/cli/devnet.js';

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
