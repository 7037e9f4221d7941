/**
 * The progress line (count, rate, ETA on stderr) shows on a terminal only: on a real pseudo-terminal
 * (`script -qc`), absent when stderr is piped, absent with --quiet. And `verify --only-invalid`.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createProgress } from '../../src/cli/progress.js';
import { run as verify } from '../../src/cli/verify.js';

const tmp = mkdtempSync(join(tmpdir(), 'cairn-progress-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const proof = JSON.parse(readFileSync('test/vectors/bubblegum/mpl_bubblegum_dasApi_BZHZ4GX7_depth14_canopy0.json', 'utf8')).getAssetProof;
const file = join(tmp, 'mixed.json');
// 600 proofs, every 100th one made invalid (a null): several batches, 6 invalid.
writeFileSync(file, JSON.stringify(Array.from({ length: 600 }, (_, i) => (i % 100 === 99 ? null : proof))));

function writer(isTTY: boolean) {
  let text = '';
  return { w: { isTTY, write: (s: string) => (text += s) }, text: () => text };
}

describe('createProgress', () => {
  it('on a terminal: count/total, rate and ETA redrawn in place, a final line with the time', () => {
    let t = 0;
    const s = writer(true);
    const p = createProgress(s.w, { label: 'proofs', total: 1000, now: () => t });
    t = 1000;
    p.tick(100);
    expect(s.text()).toBe('\rproofs 100/1000 (10%), 100/s, ETA 9.0s\x1b[K');
    t = 1050;
    p.tick(100); // within 100 ms of the last draw: not redrawn
    expect(s.text().split('\r')).toHaveLength(2);
    t = 2000;
    p.tick(800);
    p.done();
    // eslint-disable-next-line no-control-regex -- ESC [K, the terminal's erase-line, is what the line must end with
    expect(s.text()).toMatch(/\rproofs 1000\/1000 \(100%\), 500\/s in 2\.0s\x1b\[K\n$/);
  });

  it('not a terminal, or quiet: nothing at all', () => {
    const piped = writer(false);
    const a = createProgress(piped.w, { label: 'x', total: 3 });
    a.tick(3);
    a.done();
    expect(piped.text()).toBe('');
    const quiet = writer(true);
    const b = createProgress(quiet.w, { label: 'x', total: 3, quiet: true });
    b.tick(3);
    b.done();
    expect(quiet.text()).toBe('');
  });
});

describe('cairn verify progress, in process', () => {
  async function cli(argv: string[], tty: boolean) {
    const out = writer(false);
    const err = writer(tty);
    const code = await verify(argv, { stdout: out.w, stderr: err.w, stdin: (async function* () {})() });
    return { code, out: out.text(), err: err.text() };
  }

  it('a terminal stderr gets the line, stdout only the verdicts', async () => {
    const r = await cli(['asset-proof', file, '--threads', '1'], true);
    expect(r.code).toBe(1);
    // eslint-disable-next-line no-control-regex -- ESC [K, the terminal's erase-line, is what the line must end with
    expect(r.err).toMatch(/\rasset-proof: verified 600\/600 \(100%\), \d+\/s in [\d.]+s\x1b\[K\n$/);
    expect(r.out).not.toMatch(/\r/);
    expect((await cli(['asset-proof', file, '--quiet'], true)).err).toBe('');
    expect((await cli(['asset-proof', file, '-q'], true)).err).toBe('');
    expect((await cli(['asset-proof', file], false)).err).toBe('');
  });

  it('--only-invalid prints the invalid items only; the totals count all', async () => {
    const r = await cli(['asset-proof', file, '--only-invalid'], false);
    expect(r.code).toBe(1);
    const lines = r.out.trim().split('\n');
    expect(lines.slice(0, -1)).toEqual([99, 199, 299, 399, 499, 599].map((i) => expect.stringMatching(new RegExp(`^INVALID  #${i}: `))));
    expect(lines.at(-1)).toBe('asset-proof: 600 item(s), 594 valid, 6 invalid (not anchored: roots not checked against the chain; add --rpc URL to anchor)');
    const j = JSON.parse((await cli(['asset-proof', file, '--only-invalid', '--json'], false)).out);
    expect(j).toMatchObject({ total: 600, valid: 594, invalid: 6 });
    expect(j.items.map((i: { id: string }) => i.id)).toEqual(['99', '199', '299', '399', '499', '599']);
  });
});

const hasScript = await new Promise<boolean>((resolve) => execFile('script', ['--version'], (e) => resolve(!e)));

describe.runIf(hasScript)('cairn verify progress, as a process', () => {
  /** Run under a pseudo-terminal (util-linux `script`): stdout and stderr are both the terminal. */
  function underPty(args: string[]): Promise<string> {
    const cmd = [process.execPath, 'bin/cairn.js', ...args].map((a) => `'${a}'`).join(' ');
    return new Promise((resolve, reject) =>
      execFile('script', ['-qec', cmd, '/dev/null'], { timeout: 60_000 }, (e, out) => ((e as { code?: number } | null)?.code === 1 || !e ? resolve(out) : reject(e))),
    );
  }

  it('on a pseudo-terminal the progress line is there; piped it is not', async () => {
    const pty = await underPty(['verify', 'asset-proof', file]);
    expect(pty).toMatch(/asset-proof: verified 600\/600 \(100%\), \d+\/s in/);
    expect(await underPty(['verify', 'asset-proof', file, '--quiet'])).not.toMatch(/verified 600/);

    const child = spawn(process.execPath, ['bin/cairn.js', 'verify', 'asset-proof', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    let out = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(code).toBe(1);
    expect(err).toBe('');
    expect(out).toMatch(/600 item\(s\), 594 valid, 6 invalid/);
  }, 120_000);
});
