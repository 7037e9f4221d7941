/**
 * docs/subscriptions.md's example runs as written (it starts its own devnet): its `cairn-solana`
 * imports pointed at src/, its output checked — the account notification and the logs callback
 * both seen for the transfer. readme-examples.test.ts type-checks it with every other doc block.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { documents, root, tsBlocks } from './doc-blocks.js';

const doc = documents().find((d) => d.file === 'docs/subscriptions.md')!;
const dir = join(root, 'test', 'docs', '.subscriptions-run');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('docs/subscriptions.md: the example subscribes, sends, and sees the account and its logs', async () => {
  const [block] = tsBlocks(doc.text, doc.file);
  const src = (sub: string | undefined) => pathToFileURL(join(root, 'src', sub ? `${sub}/index.ts` : 'index.ts')).href;
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'example.ts');
  writeFileSync(file, `${block!.code.replace(/from 'cairn-solana(?:\/(\w+))?'/g, (_, sub: string | undefined) => `from '${src(sub)}'`)}\nexport {};\n`);
  const out: string[] = [];
  const log = console.log;
  console.log = (...a: unknown[]) => void out.push(a.map(String).join(' '));
  try {
    await import(pathToFileURL(file).href);
  } finally {
    console.log = log;
  }
  expect(out.join('\n')).toMatch(/^balance 1000000 at slot \d+$/m);
  expect(out.join('\n')).toMatch(/^logs of [1-9A-HJ-NP-Za-km-z]{64,88}$/m);
}, 60_000);
