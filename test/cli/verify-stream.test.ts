// cairn verify's streamed path: an NDJSON file (one item or envelope per line) is verified item by
// item with the lines and totals of the whole-input path (a device: test/cli/verify.exit.test.ts).
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../src/cli/verify.js';

const V = new URL('../vectors', import.meta.url).pathname;
const proof = JSON.parse(readFileSync(`${V}/bubblegum/mpl_bubblegum_dasApi_BZHZ4GX7_depth14_canopy0.json`, 'utf8')).getAssetProof;
const tmp = mkdtempSync(join(tmpdir(), 'cairn-verify-stream-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function cli(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await run(args, { stdout: { write: (s: string) => (out += s) }, stderr: { write: () => true }, stdin: (async function* () {})() });
  return { code, out };
}

describe('cairn verify, streamed', () => {
  it('NDJSON: items and envelopes one per line, a bad one named', async () => {
    const file = join(tmp, 'proofs.ndjson');
    writeFileSync(file, [JSON.stringify(proof), JSON.stringify({ jsonrpc: '2.0', id: 1, result: [proof, { ...proof, leaf: proof.root }] }), JSON.stringify(proof)].join('\n') + '\n');
    const r = await cli(['asset-proof', file, '--json']);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out);
    expect(j).toMatchObject({ total: 4, valid: 3, invalid: 1 });
    expect(j.items.map((i: { valid: boolean }) => i.valid)).toEqual([true, true, false, true]);
  });
});
