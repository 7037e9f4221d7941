import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { verifyCli } from '../support/verify-cli.js';

const cli = verifyCli;

const V = 'test/vectors';
const photon = (re: RegExp) => readdirSync(`${V}/photon`).filter((f) => re.test(f)).map((f) => `${V}/photon/${f}`);
const nonEmpty = (f: string) => !/"items": \[\]/.test(readFileSync(f, 'utf8'));

const tmp = mkdtempSync(join(tmpdir(), 'cairn-verify-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('cairn verify on every kind of shipped vector file', () => {
  const cases: [string, string, number][] = [
    ...photon(/-proofs\.json$/).map((f): [string, string, number] => ['account-proof', f, 0]),
    ...photon(/-accounts(-v2)?\.json$/).filter(nonEmpty).map((f): [string, string, number] => ['account-hash', f, 0]),
    ...photon(/-transaction(-v2)?\.json$/).map((f): [string, string, number] => ['account-hash', f, 0]),
    ...photon(/proof-address\.json$|new_address_proofs_interop\.json$/).map((f): [string, string, number] => ['address-proof', f, 0]),
    ...readdirSync(`${V}/bubblegum`).filter((f) => f.startsWith('mpl_')).map((f): [string, string, number] => ['asset-proof', `${V}/bubblegum/${f}`, 0]),
    ...readdirSync(`${V}/bubblegum`).filter((f) => f.startsWith('mpl_')).map((f): [string, string, number] => ['asset-leaf', `${V}/bubblegum/${f}`, 0]),
    // A decompressed asset has no leaf: not valid, and the reason says so.
    ...readdirSync(`${V}/das`).map((f): [string, string, number] => ['asset-leaf', `${V}/das/${f}`, f.includes('asset_decompress') ? 1 : 0]),
  ];
  it('has files of every kind', () => {
    for (const k of ['account-proof', 'account-hash', 'address-proof', 'asset-proof', 'asset-leaf']) expect(cases.filter((c) => c[0] === k).length).toBeGreaterThan(0);
  });
  it.each(cases)('%s %s → exit %i', async (kind, file, want) => {
    const r = await cli([kind, file, '--json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(want);
    const j = JSON.parse(r.out);
    expect(j).toMatchObject({ kind, total: j.items.length, valid: j.items.filter((i: any) => i.valid).length });
    expect(j.invalid).toBe(j.total - j.valid);
    // something must actually have been checked, except in a file that is an empty page
    if (!/"items": \[\]/.test(readFileSync(file, 'utf8'))) expect(j.total).toBeGreaterThan(0);
    for (const i of j.items) expect(typeof i.id).toBe('string');
    if (want === 1) expect(j.items.find((i: any) => !i.valid).reason).toMatch(/not compressed/);
  });
});

describe('cairn verify: not found is never "all valid"', () => {
  const bundle = JSON.parse(readFileSync(`${V}/bubblegum/mpl_bubblegum_dasApi_3UowCweY_depth14_canopy9.json`, 'utf8'));

  it.each([
    ['a bare null', 'null'],
    ['a JSON-RPC response with a null result', '{"jsonrpc":"2.0","id":"1","result":null}'],
    ['a compression envelope with a null value', '{"context":{"slot":1},"value":null}'],
  ])('%s exits 2 and says nothing was found', async (_label, text) => {
    const r = await cli(['account-proof', '-'], text);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/null|not found/);
  });

  it('a getAssetProofBatch answer with an unknown (null) id: that item invalid, the others still checked', async () => {
    const answer = { [bundle.assetId]: bundle.getAssetProof, '11111111111111111111111111111112': null };
    const r = await cli(['asset-proof', '-', '--json'], JSON.stringify(answer));
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out);
    expect(j.total).toBe(2);
    expect(j.items[0]).toEqual({ id: bundle.assetId, valid: true });
    expect(j.items[1]).toMatchObject({ id: '11111111111111111111111111111112', valid: false, reason: expect.stringMatching(/null/) });
  });
});

describe('cairn verify: output, exit codes and input forms', () => {
  const proofs = `${V}/photon/e2e_tests__e2e_mint_and_transfer-bob-proofs.json`;
  const json = JSON.parse(readFileSync(proofs, 'utf8'));

  it('exit 1 when any item is invalid, with the reason in --json and in text', async () => {
    const forged = structuredClone(json);
    forged.value[1].proof[5] = forged.value[0].proof[0];
    const f = join(tmp, 'forged.json');
    writeFileSync(f, JSON.stringify(forged));
    const r = await cli(['account-proof', f, '--json']);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out);
    expect(j).toEqual({
      kind: 'account-proof',
      total: 2,
      valid: 1,
      invalid: 1,
      items: [
        { id: json.value[0].hash, valid: true },
        { id: json.value[1].hash, valid: false, reason: expect.stringMatching(/root mismatch/) },
      ],
    });
    const t = await cli(['account-proof', f]);
    expect(t.code).toBe(1);
    expect(t.out).toMatch(/INVALID .*root mismatch/);
    expect(t.out).toMatch(/2 item\(s\), 1 valid, 1 invalid/);
  });

  it('reads stdin with -, and a whole JSON-RPC response, and an object keyed by id', async () => {
    const rpc = { jsonrpc: '2.0', id: 1, result: json };
    expect((await cli(['account-proof', '-'], JSON.stringify(rpc))).code).toBe(0);
    const bg = JSON.parse(readFileSync(`${V}/bubblegum/mpl_bubblegum_dasApi_BZHZ4GX7_depth14_canopy0.json`, 'utf8'));
    const batch = { jsonrpc: '2.0', id: 1, result: { [bg.assetId]: bg.getAssetProof } };
    const r = await cli(['asset-proof', '-', '--json'], JSON.stringify(batch));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).items).toEqual([{ id: bg.assetId, valid: true }]);
  });

  it('reads a named pipe to its end (as `<(…)` gives), with the verdicts of the file', async () => {
    const src = `${V}/bubblegum/mpl_bubblegum_dasApi_BZHZ4GX7_depth14_canopy0.json`;
    const fifo = join(tmp, 'proofs.fifo');
    try {
      await new Promise<void>((ok, fail) => execFile('mkfifo', [fifo], (e) => (e ? fail(e) : ok())));
    } catch {
      return; // no mkfifo here
    }
    // The writer opens the pipe once the command opens it for reading, and writes the file through it.
    const writer = (async () => {
      const { open: openFile } = await import('node:fs/promises');
      const w = await openFile(fifo, 'w');
      await w.writeFile(readFileSync(src));
      await w.close();
    })();
    const [r] = await Promise.all([cli(['asset-proof', fifo, '--json']), writer]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual(JSON.parse((await cli(['asset-proof', src, '--json'])).out));
  });

  it('exit 0 and says so for an empty page', async () => {
    const r = await cli(['account-hash', `${V}/photon/e2e_tests__address_with_nullifiers-transactions.json`]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/nothing to verify/);
  });

  it('exit 2 with a message for unusable input', async () => {
    const notJson = join(tmp, 'not.json');
    writeFileSync(notJson, '{"value": [1, 2');
    const rpcErr = join(tmp, 'err.json');
    writeFileSync(rpcErr, JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Invalid params' } }));
    const cases: [string[], RegExp][] = [
      [['account-proof', notJson], /is not JSON/],
      [['account-proof', join(tmp, 'missing.json')], /cannot read/],
      [['address-proof', `${V}/photon/e2e_tests__e2e_mint_and_transfer-bob-accounts.json`], /unusable input for address-proof/],
      [['account-proof', rpcErr], /JSON-RPC error response \(-32602: Invalid params\)/],
      [['bogus-kind', proofs], /unknown kind "bogus-kind"/],
      [['account-proof'], /expected a kind and a file/],
      [['account-proof', proofs, '--threads', 'x'], /--threads/],
      [['account-proof', proofs, '--frobnicate'], /unknown option/],
    ];
    for (const [argv, msg] of cases) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err, argv.join(' ')).toMatch(msg);
      expect(r.out).toBe('');
    }
  });

  it('--threads 1 verifies on a worker thread with the same verdicts', async () => {
    const many = { context: { slot: 0 }, value: Array.from({ length: 12 }, (_, i) => json.value[i % 2]) };
    const f = join(tmp, 'many.json');
    writeFileSync(f, JSON.stringify(many));
    const r = await cli(['account-proof', f, '--json', '--threads', '1']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ total: 12, valid: 12, invalid: 0 });
  });

  // npx runs a package's bin by the package's name: `npx cairn-solana verify` (the bin `cairn` once it is installed)
  it('runs as `npx cairn-solana verify` from the project root', async () => {
    const r = await new Promise<{ code: number; out: string }>((resolve) => {
      execFile('npx', ['cairn-solana', 'verify', 'address-proof', `${V}/photon/mock_tests__get_multiple_new_address_proofs_interop.json`, '--json'], { timeout: 60_000 }, (e, out) =>
        resolve({ code: e ? ((e as { code?: number }).code ?? 99) : 0, out }),
      );
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ kind: 'address-proof', total: 1, valid: 1, invalid: 0 });
  });
});

describe('cairn verify: a large file is scanned, not parsed, and reads the same', () => {
  const bundle = JSON.parse(readFileSync(`${V}/bubblegum/mpl_bubblegum_dasApi_3UowCweY_depth14_canopy9.json`, 'utf8'));
  const full = JSON.parse(readFileSync(`${V}/bubblegum/mpl_bubblegum_dasApi_BZHZ4GX7_depth14_canopy0.json`, 'utf8'));

  it('a 2,000-proof getAssetProofBatch response keyed by id: ids from the keys, one bad proof found', async () => {
    const result: Record<string, unknown> = {};
    for (let i = 0; i < 2000; i++) result[`asset-${i}`] = i === 1234 ? { ...full.getAssetProof, root: bundle.getAssetProof.root } : full.getAssetProof;
    const file = join(tmp, 'big-batch.json');
    writeFileSync(file, JSON.stringify({ jsonrpc: '2.0', id: 1, result }));
    const r = await cli(['asset-proof', file, '--json', '--threads', '2']);
    expect(r.err).toBe('');
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out);
    expect(j).toMatchObject({ total: 2000, valid: 1999, invalid: 1 });
    expect(j.items[1234]).toMatchObject({ id: 'asset-1234', valid: false });
    expect(j.items[1999].id).toBe('asset-1999');
  });

  it('a large file that breaks off: exit 2, "is not JSON", with the byte', async () => {
    const text = JSON.stringify(Array.from({ length: 2000 }, () => full.getAssetProof));
    const file = join(tmp, 'cut.json');
    writeFileSync(file, text.slice(0, -100));
    const r = await cli(['asset-proof', file]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/is not JSON: .*at byte \d+/);
  });
});
