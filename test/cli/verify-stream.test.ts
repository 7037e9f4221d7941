// cairn verify's streamed path: an NDJSON file (one item or envelope per line) is verified item by
// item with the lines and totals of the whole-input path (a device: test/cli/verify.exit.test.ts).
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../src/cli/verify.js';
import { STREAM_ABOVE } from '../../src/cli/verify-stream.js';

const V = new URL('../vectors', import.meta.url).pathname;
const proof = JSON.parse(readFileSync(`${V}/bubblegum/mpl_bubblegum_dasApi_BZHZ4GX7_depth14_canopy0.json`, 'utf8')).getAssetProof;
const tmp = mkdtempSync(join(tmpdir(), 'cairn-verify-stream-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function cli(
  args: string[],
  stdin: AsyncIterable<Uint8Array> = (async function* () {})(),
  onWrite = (): void => undefined,
): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await run(args, { stdout: { write: (s: string) => ((out += s), onWrite(), true) }, stderr: { write: () => true }, stdin });
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

  it('NDJSON on stdin: the same lines and totals as from a file', async () => {
    const text = [JSON.stringify(proof), JSON.stringify({ jsonrpc: '2.0', id: 1, result: [proof, { ...proof, leaf: proof.root }] }), JSON.stringify(proof)].join('\n') + '\n';
    const r = await cli(['asset-proof', '-', '--json'], (async function* () { yield Buffer.from(text); })());
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out);
    expect(j).toMatchObject({ total: 4, valid: 3, invalid: 1 });
    expect(j.items.map((i: { valid: boolean }) => i.valid)).toEqual([true, true, false, true]);
  });

  it('stdin past STREAM_ABOVE is verified item by item: verdicts come out before the input has ended', async () => {
    const one = Buffer.from(JSON.stringify(proof));
    const n = Math.ceil((STREAM_ABOVE * 1.5) / (one.length + 1));
    let chunksRead = 0;
    let readAtFirstWrite = -1;
    const chunks = 64;
    async function* input(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('[');
      for (let c = 0; c < chunks; c++) {
        const per = Math.ceil(n / chunks);
        const parts: Buffer[] = [];
        for (let i = c * per; i < Math.min(n, (c + 1) * per); i++) parts.push(i === 0 ? one : Buffer.concat([Buffer.from(','), one]));
        chunksRead++;
        yield Buffer.concat(parts);
      }
      yield Buffer.from(']');
    }
    const r = await cli(['asset-proof', '-', '--json'], input(), () => {
      if (readAtFirstWrite < 0) readAtFirstWrite = chunksRead;
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ total: n, valid: n, invalid: 0 });
    expect(readAtFirstWrite).toBeGreaterThan(0);
    expect(readAtFirstWrite).toBeLessThan(chunks);
  });
});
