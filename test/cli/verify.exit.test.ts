/**
 * `cairn verify` never says "ok" (exit 0) for input it could not verify, and never reads without
 * bound: any error is exit 2 (1 only for invalid items), input over `--max-bytes` is INPUT_TOO_LARGE
 * naming the limit, from a file, a device, a pipe or stdin, and the output is written a batch at a
 * time as the consumer takes it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile, spawn } from 'node:child_process';
import { run, type CliIo } from '../../src/cli/verify.js';

const tmp = mkdtempSync(join(tmpdir(), 'cairn-verify-exit-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const proof = JSON.parse(readFileSync('test/vectors/bubblegum/mpl_bubblegum_dasApi_BZHZ4GX7_depth14_canopy0.json', 'utf8')).getAssetProof;
const proofText = JSON.stringify(proof);

/** Run the command in-process; `stdin` is any async iterable. */
async function cli(argv: string[], stdin: AsyncIterable<string | Uint8Array> = (async function* () {})(), stdout?: CliIo['stdout']) {
  let out = '';
  let err = '';
  const code = await run(argv, {
    stdout: stdout ?? { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    stdin,
  });
  return { code, out, err };
}

/** The command as a process of its own (`bin/cairn.js`), as scripts run it. */
function cairn(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/cairn.js', 'verify', ...args], { timeout: 60_000, maxBuffer: 64 << 20 }, (e, out, err) =>
      resolve({ code: e ? ((e as { code?: number }).code ?? null) : 0, out, err }),
    );
  });
}

describe('cairn verify: an error is never exit 0', () => {
  it('a 2.5 MB file whose item 1500 is not a proof: exit 2, as a process, every run', async () => {
    const n = Math.ceil(2.5e6 / proofText.length);
    const file = join(tmp, 'bad-1500.json');
    writeFileSync(file, `[${Array.from({ length: n }, (_, i) => (i === 1500 ? '{"bogus":1}' : proofText)).join(',')}]`);
    // The error was printed, then the process ended while close() still waited on idle workers,
    // before the exit code was set: exit 0 in half the runs or more.
    for (let i = 0; i < 3; i++) {
      const r = await cairn(['asset-proof', file]);
      // the one CLI error format of issue 21: `cairn verify: [CODE] "field": message`
      expect(r.err).toMatch(/\[INPUT_INVALID\] "items\[1500\]": not a asset-proof item/);
      expect(r.code, `run ${i}`).toBe(2);
    }
  });
});

describe('cairn verify: a reader that goes away', () => {
  it('stdout closed after the first line (`| head -1`): exit 2, never the 1 of a crash read as "some invalid"', async () => {
    const file = join(tmp, 'valid-many.json');
    writeFileSync(file, `[${Array.from({ length: 6000 }, () => proofText).join(',')}]`);
    const child = spawn(process.execPath, ['bin/cairn.js', 'verify', 'asset-proof', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    // An unhandled EPIPE crashed the process with exit 1: "some item invalid" for a file of valid ones.
    expect(code).toBe(2);
    expect(err).toMatch(/cairn verify: .*EPIPE/);
  });
});

describe('cairn verify: input is bounded (--max-bytes)', () => {
  it('/dev/zero: INPUT_TOO_LARGE naming the limit, after reading no more than it', async () => {
    const r = await cli(['asset-proof', '/dev/zero', '--max-bytes', '1000000']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/INPUT_TOO_LARGE.*1000000 bytes.*--max-bytes/);
    expect(r.out).toBe('');
  });

  it('stdin that never ends: INPUT_TOO_LARGE, and the stream is left (not read to its end)', async () => {
    let pulled = 0;
    const endless = (async function* () {
      for (;;) {
        pulled += 65536;
        yield new Uint8Array(65536).fill(0x20);
      }
    })();
    const r = await cli(['asset-proof', '-', '--max-bytes=300000'], endless);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/INPUT_TOO_LARGE.*300000 bytes/);
    expect(pulled).toBeLessThan(300000 + 2 * 65536);
  });

  it('a file larger than the limit is refused before it is read; one within it is verified', async () => {
    const file = join(tmp, 'three.json');
    writeFileSync(file, JSON.stringify([proof, proof, proof]));
    const size = readFileSync(file).length;
    const over = await cli(['asset-proof', file, '--max-bytes', String(size - 1)]);
    expect(over.code).toBe(2);
    expect(over.err).toMatch(new RegExp(`INPUT_TOO_LARGE.*${size - 1} bytes`));
    const within = await cli(['asset-proof', file, '--max-bytes', String(size), '--json']);
    expect(within.code).toBe(0);
    expect(JSON.parse(within.out)).toMatchObject({ total: 3, valid: 3, invalid: 0 });
  });

  it('a bad --max-bytes is a usage error', async () => {
    for (const v of ['0', '-5', 'abc', '1.5', '']) {
      const r = await cli(['asset-proof', '-', '--max-bytes', v]);
      expect(r.code, v).toBe(2);
      expect(r.err, v).toMatch(/"--max-bytes": expected/);
    }
    expect((await cli(['asset-proof', '-', '--max-bytes'])).err).toMatch(/"--max-bytes": expected/);
  });

  it('the usage names --max-bytes and every exit code', async () => {
    const r = await cli(['--help']);
    expect(r.out).toMatch(/--max-bytes N/);
    expect(r.out).toMatch(/0 .*valid/);
    expect(r.out).toMatch(/1 .*invalid/);
    expect(r.out).toMatch(/2 .*/);
  });
});

describe('cairn verify: output a batch at a time', () => {
  const nulls = (n: number): string => `[${Array.from({ length: n }, () => 'null').join(',')}]`;

  it('a slow stdout holds the verifying back: one write waits for its drain before the next', async () => {
    const file = join(tmp, 'nulls.json');
    writeFileSync(file, nulls(20_000));
    let writes = 0;
    let waiting = false;
    let overlapped = false;
    let text = '';
    const slow = {
      write(s: string): boolean {
        if (waiting) overlapped = true;
        writes++;
        text += s;
        waiting = true;
        return false;
      },
      on(event: 'drain' | 'error', fn: () => void): void {
        if (event === 'drain') {
          setTimeout(() => {
            waiting = false;
            fn();
          }, 1);
        }
      },
      off(): void {},
    };
    const r = await cli(['asset-proof', file, '--threads', '2'], undefined, slow);
    expect(r.code).toBe(1);
    expect(overlapped).toBe(false);
    // A write per batch and the summary: the output is not held until the end.
    expect(writes).toBeGreaterThan(2);
    expect(text.split('\n').filter((l) => l.startsWith('INVALID  #')).length).toBe(20_000);
    expect(text).toMatch(/20000 item\(s\), 0 valid, 20000 invalid\n$/);
  });

  it('--json over many batches is one JSON document; cut short by an error it does not parse, and the exit is 2', async () => {
    const file = join(tmp, 'nulls-json.json');
    writeFileSync(file, nulls(20_000));
    const r = await cli(['asset-proof', file, '--json', '--threads', '2']);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out);
    expect(j).toMatchObject({ kind: 'asset-proof', total: 20_000, valid: 0, invalid: 20_000 });
    expect(j.items).toHaveLength(20_000);
    expect(j.items[19_999]).toMatchObject({ id: '19999', valid: false, reason: expect.stringMatching(/null/) });

    const n = Math.ceil(2.5e6 / proofText.length);
    const bad = join(tmp, 'bad-json.json');
    writeFileSync(bad, `[${Array.from({ length: n }, (_, i) => (i === n - 2 ? '7' : proofText)).join(',')}]`);
    const cut = await cli(['asset-proof', bad, '--json', '--threads', '2']);
    expect(cut.code).toBe(2);
    expect(cut.err).toMatch(new RegExp(`items\\[${n - 2}\\]`));
    expect(() => JSON.parse(cut.out)).toThrow();
  });
});
