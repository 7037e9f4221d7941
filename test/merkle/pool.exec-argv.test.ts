/**
 * The verifier's workers start under any flags the parent was started with. `node
 * --input-type=module -e …` is how a user tries cairn from a shell; a worker that inherited
 * `--input-type` read its CommonJS bootstrap as an ES module and died ("require is not defined").
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { workerExecArgv } from '../../src/worker-start.js';

const run = promisify(execFile);
const merkle = fileURLToPath(new URL('../../src/merkle/index.ts', import.meta.url));
const fixtures = fileURLToPath(new URL('../support/merkle-json-fixtures.ts', import.meta.url));

describe('worker execArgv', () => {
  it('drops --input-type in both spellings and keeps every other flag', () => {
    expect(workerExecArgv(['--input-type=module', '--import', 'tsx', '--input-type', 'commonjs', '--conditions=dev'])).toEqual([
      '--import',
      'tsx',
      '--conditions=dev',
    ]);
    expect(workerExecArgv([])).toEqual([]);
  });

  it('a pooled verifier works from `node --input-type=module -e`', async () => {
    const script = `
      import { createVerifier } from ${JSON.stringify(merkle)};
      import { itemsOf } from ${JSON.stringify(fixtures)};
      const v = createVerifier({ threads: 1 });
      try {
        const items = itemsOf('asset-proof');
        const r = await v.verify('asset-proof', items);
        console.log('ok', r.length === items.length && r.every((x) => x.valid) && v.kernels !== null);
      } finally { await v.close(); }
    `;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 30_000 });
    expect(stdout.trim()).toBe('ok true');
  });
});
