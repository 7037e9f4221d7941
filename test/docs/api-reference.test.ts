/**
 * The API reference builds from the doc comments with no TypeDoc warning (`npm run docs`; every
 * warning is an error there), with a page for each of the five entry points. Written to a temporary
 * directory: the tracked tree is never touched.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { root } from './doc-blocks.js';

const out = mkdtempSync(join(tmpdir(), 'cairn-api-docs-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

it('npm run docs: TypeDoc builds the reference of every entry point without a warning', async () => {
  const r = await new Promise<{ code: number; text: string }>((resolve) => {
    execFile(process.execPath, [join(root, 'scripts', 'api-docs.mjs'), out], { cwd: root, timeout: 240_000, maxBuffer: 16 << 20 }, (e, stdout, stderr) =>
      resolve({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, text: `${stdout}${stderr}` }),
    );
  });
  expect(r.text).not.toMatch(/\[warning\]|\[error\]/);
  expect(r.code).toBe(0);
  for (const page of ['index.html', 'modules/index.html', 'modules/merkle.html', 'modules/sender.html', 'modules/devnet.html', 'modules/mint.html']) {
    expect(existsSync(join(out, page)), page).toBe(true);
  }
}, 240_000);
