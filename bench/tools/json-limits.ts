/** Tool: what hostile JSON (huge literals, deep nesting) costs each JSON reader, in ms per MB. */
/**
 * What hostile JSON costs each reader the client and verifier use, in ms per MB of text: a 20 MB
 * integer literal, a 20 MB float, a 20 MB string, 100,000 levels of nesting, and (for scale) a real
 * 1.2 MB getAssetBatch response. Each reader either parses the text or refuses it with its typed error
 * (INPUT_TOO_LARGE for the limits); the column says which. The best of 3 runs is printed.
 *
 * `npx tsx bench/tools/json-limits.ts` (CAIRN_JSON_SCAN=js for the portable scanner); ~10 s.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseJsonLossless } from '../../src/merkle/input.js';
import { jsonScanBackend, scanJson } from '../../src/json/index.js';
import { parseJson } from '../../src/rpc/json.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const MB = 1 << 20;

const assets = readdirSync(join(root, 'test/vectors/das'))
  .map((f) => JSON.parse(readFileSync(join(root, 'test/vectors/das', f), 'utf8')) as { items?: unknown[] })
  .flatMap((v) => (Array.isArray(v.items) ? v.items : [v]));
const texts: Array<[string, string]> = [
  ['20 MB integer', `{"result":{"context":{"slot":1},"value":${'9'.repeat(20 * MB)}}}`],
  ['20 MB float', `{"result":[1.${'5'.repeat(20 * MB)}]}`],
  ['20 MB string', `{"result":"${'x'.repeat(20 * MB)}","n":12345678901234567890}`],
  ['100k levels', '['.repeat(100_000) + '12345678901234567890' + ']'.repeat(100_000)],
  ['1,000 assets', JSON.stringify({ jsonrpc: '2.0', id: 1, result: Array.from({ length: 1000 }, (_, i) => assets[i % assets.length]) })],
];

const readers: Array<[string, (text: string, bytes: Buffer) => unknown]> = [
  ['rpc parseJson', (t) => parseJson(t)],
  ['parseJsonLossless', (t) => parseJsonLossless(t)],
  [`scanJson (${jsonScanBackend()})`, (_t, b) => scanJson(b).release()],
];

console.log(`${'text'.padEnd(14)} ${'reader'.padEnd(20)} ${'ms/MB'.padStart(8)} ${'ms'.padStart(8)}  outcome`);
for (const [name, text] of texts) {
  const bytes = Buffer.from(text);
  const mb = bytes.length / MB;
  for (const [reader, read] of readers) {
    let best = Infinity;
    let outcome = 'parsed';
    for (let run = 0; run < 3; run++) {
      const t0 = performance.now();
      try {
        read(text, bytes);
      } catch (e) {
        outcome = `${(e as { code?: string }).code ?? (e as Error).name}`;
      }
      best = Math.min(best, performance.now() - t0);
    }
    console.log(`${name.padEnd(14)} ${reader.padEnd(20)} ${(best / mb).toFixed(2).padStart(8)} ${best.toFixed(1).padStart(8)}  ${outcome}`);
  }
}
